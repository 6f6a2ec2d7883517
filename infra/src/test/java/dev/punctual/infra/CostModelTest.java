package dev.punctual.infra;

import static dev.punctual.infra.CostPrices.GB;
import static dev.punctual.infra.CostPrices.MILLION;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.DueBuckets;
import dev.punctual.outcome.Reason;
import dev.punctual.runtime.MissedRunWatchdog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * What a stage costs a month, computed from the synthesised templates (alarms and the metrics they
 * read, dashboards, Contributor Insights rules, keys, function memory, log retention), the metrics and
 * log lines the code really writes per occurrence (the runtime on the in-memory ledger), the ledger's
 * requests and write units measured by {@code LedgerCostTest} (its figures in docs/benchmarks.md), and
 * {@link CostPrices}. Prints the table docs/cost.md shows, and fails when a 15-minute job's marginal cost
 * exceeds $0.05 a month or a stage's fixed cost exceeds $15 a month.
 *
 * <p>Synthesises 10 and 2,000 jobs: the fixed part must not grow between them, and 2,000 jobs must stay
 * within CloudFormation's limits and pass cdk-nag.
 */
class CostModelTest {

    static final double MAX_MARGINAL_15_MINUTES = 0.05;
    static final double MAX_FIXED = 15.00;

    /**
     * Reasons no outcome line carries, so no metric: an RRULE's deployed cron firing the rule leaves out is
     * answered with a plain log line (decision 0049).
     */
    static final Set<String> UNPUBLISHED_REASONS = Set.of("OUTSIDE_RULE");

    /**
     * Reasons only a feature a stage opts into can give: a per-entity job's deleted entity, a job's start
     * deadline, an operator's skip or pause, a job's calendar (and its end), a blackout window, a maintenance
     * condition that cannot be evaluated, or a long job (its start, a failed chunk or execution, a cancel).
     * A stage without
     * the feature never publishes their {@code Occurrences}
     * metric, so they are not in its fixed cost; each is printed as what it adds in a month it occurs.
     */
    static final Set<String> FEATURE_REASONS = Set.of(
            "ENTITY_DELETED",
            "DEADLINE_PASSED",
            "OPERATOR_SKIPPED",
            // An operator's pause (decision 0040): published only in a month someone paused a job.
            "PAUSED",
            "CALENDAR",
            "CALENDAR_ENDED",
            "BLACKOUT",
            "MAINTENANCE_UNKNOWN",
            // A job needing approval's (decision 0041): only such a catalog publishes it.
            "UNAPPROVED",
            // A long job's (decision 0039): only a stage with a long job publishes them.
            "STARTED",
            "CHUNK_FAILED",
            "EXECUTION_FAILED",
            "CANCELLED",
            // The dead-letter consumer's (decision 0044): on no outcome line; its own Undelivered metric is
            // published only in a month a delivery was given up.
            "UNDELIVERED");

    static final int[] JOB_COUNTS = {10, 300, 2_000};

    /** Where the 2,000-job stage's templates are left for cfn-lint (the module's build directory). */
    static final Path SCALE_TEMPLATES = Path.of("target", "scale-2000");

    static final int[] CADENCES_MINUTES = {1, 15, 60};

    /**
     * Assumptions, stated in docs/cost.md: billed Lambda time of one warm occurrence (claim, job,
     * transaction, PutEvents: about 200 ms in the cold-start benchmark's timeline); the watchdog's time
     * per job per run (two ledger reads); Lambda's START, END and REPORT lines per invocation.
     */
    static final double BILLED_SECONDS_PER_OCCURRENCE = 0.200;

    static final double WATCHDOG_SECONDS_PER_JOB = 0.010;
    static final int PLATFORM_LINE_BYTES = 60 + 52 + 240;
    static final int PLATFORM_LINES = 3;
    /** CloudWatch Logs counts 26 bytes of metadata per log event. */
    static final int LOG_EVENT_OVERHEAD = 26;

    static final double WATCHDOG_RUNS_PER_MONTH = CostPrices.MINUTES_PER_MONTH / 60;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-30T14:00:00Z");

    private static TemplateCosts small;
    private static TemplateCosts large;
    private static StageStack largeStage;
    private static Map<String, Long> largeTemplateBytes;
    private static Consumption consumption;
    private static Ledger ledger;

    @BeforeAll
    static void measure() throws IOException {
        small = TemplateCosts.of(Synth.stage(Stages.named("prod"), withoutOptIns(10)));
        JobCatalog twoThousand = ScaleTest.generated(2_000);
        largeStage = Synth.stage(Stages.named("prod"), twoThousand);
        Path assembly = Path.of(((App) largeStage.getNode().getRoot()).synth().getDirectory());
        largeTemplateBytes = new TreeMap<>();
        // Kept for cfn-lint, which .ci/run runs over them after the tests (bash .ci/lint).
        Files.createDirectories(SCALE_TEMPLATES);
        try (Stream<Path> files = Files.list(assembly)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".template.json")).toList()) {
                Files.copy(file, SCALE_TEMPLATES.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                largeTemplateBytes.put(file.getFileName().toString(), Files.size(file));
            }
        }
        large = TemplateCosts.of(largeStage);
        consumption = Consumption.measure();
        ledger = Ledger.fromBenchmarks(Path.of("..", "docs", "benchmarks.md"));
    }

    private static JobCatalog withoutOptIns(int count) {
        return new JobCatalog(
                IntStream.range(0, count).mapToObj(i -> ScaleTest.job(i, false)).toList());
    }

    @Test
    void costTable_printed_marginalOfA15MinuteJobAndFixedCostOfAStage_withinTheLimits() {
        Model model = new Model(large, consumption, ledger);
        System.out.println(model.table());

        assertThat(model.marginal(15))
                .as("marginal cost of a 15-minute job per month")
                .isLessThanOrEqualTo(MAX_MARGINAL_15_MINUTES);
        assertThat(model.fixed()).as("fixed cost of a stage per month").isLessThanOrEqualTo(MAX_FIXED);
    }

    @Test
    void freshness_addsOneAlarmMetric_toAStageThatWatchesItsJobs_whateverTheirNumber() {
        TemplateCosts watched =
                TemplateCosts.of(Synth.stage(Stages.named("prod").withFreshWithinPeriods(3), withoutOptIns(10)));

        assertThat(watched.stageAlarmMetrics())
                .as("the StaleJobs alarm (decision 0042), whatever the number of watched jobs")
                .isEqualTo(small.stageAlarmMetrics() + 1);
    }

    @Test
    void fixedResources_doNotGrowFrom10To2000Jobs_andOnlyOptedInJobsHaveAlarms() {
        assertThat(large.stageAlarmMetrics()).isEqualTo(small.stageAlarmMetrics());
        assertThat(large.dashboards()).isEqualTo(small.dashboards()).isEqualTo(1);
        assertThat(large.insightRules()).isEqualTo(small.insightRules()).isEqualTo(3);
        assertThat(large.kmsKeys()).isEqualTo(small.kmsKeys());
        assertThat(small.jobAlarmMetrics()).as("10 jobs without opt-in").isEmpty();
        assertThat(large.jobAlarmMetrics().keySet())
                .as("2,000 jobs, one in a hundred opted in")
                .hasSize(20)
                .allSatisfy(job -> assertThat(job).endsWith("07"));
        assertThat(large.unattributedJobStackAlarms()).isZero();
    }

    @Test
    void twoThousandJobs_stayWithinCloudFormationsLimits_andPassCdkNag() {
        List<Template> templates = new ArrayList<>();
        templates.add(Template.fromStack(largeStage));
        largeStage.jobStacks().forEach(j -> templates.add(Template.fromStack(j)));
        for (Template template : templates) {
            Map<String, Object> json = template.toJSON();
            assertThat(((Map<?, ?>) json.get("Resources")).size()).isLessThanOrEqualTo(ScaleTest.MAX_RESOURCES / 2);
        }
        assertThat(largeTemplateBytes.values())
                .allSatisfy(bytes -> assertThat(bytes).isLessThan(ScaleTest.MAX_TEMPLATE_BYTES / 2));
        Annotations annotations = Annotations.fromStack(largeStage);
        assertThat(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .isEmpty();
        System.out.println(
                "CostModelTest: 2,000 jobs, stage + " + largeStage.jobStacks().size()
                        + " jobs stacks, largest template "
                        + largeTemplateBytes.values().stream()
                                .mapToLong(Long::longValue)
                                .max()
                                .orElseThrow() + " bytes");
    }

    /** Issue 21's target for one daily entity schedule, a month: ledger, logs and watching included. */
    static final double MAX_DAILY_ENTITY_SCHEDULE_MONTH = 0.0005;

    /**
     * How many entities of a stage share the due index's queries (decision 0031), the fewer the dearer:
     * the figures are printed for both, and the target is asserted at the smaller.
     */
    static final int[] WATCHED_ENTITIES = {10_000, 1_000_000};

    /**
     * Bucket-hours one watchdog run queries: its window, (h-1:07, h:07], touches two UTC hours. Each of
     * their {@link DueBuckets#SHARDS} shards is one Query.
     */
    static final int HOURS_PER_CHECK = 2;

    /**
     * Read units of one Query on the index, priced at one whatever it returns (an eventually consistent
     * read bills half a unit per 4 KB read, so one unit covers some 50 keys-only entries of 150 bytes).
     */
    static final double READ_UNITS_PER_QUERY = 1;

    /** The watchdog's time per Query on the index: a round trip within the region. */
    static final double WATCHDOG_SECONDS_PER_QUERY = 0.020;

    /**
     * Candidates a month per entity, on purpose high: each is an expected occurrence no completion moved
     * past (a lost delivery, a skip without a claim: maintenance, a busy group, schedules off), so a
     * healthy entity has none; the model charges one a month.
     */
    static final double CANDIDATES_PER_ENTITY_MONTH = 1;

    /** A candidate is confirmed with two consistent reads: the entity's cursor and the run item. */
    static final int READ_UNITS_PER_CANDIDATE = 2;

    /**
     * One entity schedule a month at three cadences, from the same prices and assumptions as a job's
     * occurrence, with what an entity's occurrence really costs: the ledger's own-lease path (decision
     * 0029, 5; LedgerCostTest's row), and the log bytes and events of the
     * runtime running an entity's delivery. The schedule itself is free (the Scheduler bills
     * invocations). Watching for missed occurrences (decision 0031) adds the due index's write units per
     * occurrence (LedgerCostTest's index row), the watchdog's queries (buckets times shards times checks,
     * shared by the stage's entities) and the reads confirming candidates.
     */
    @Test
    void entityScheduleMonth_printed_atThreeCadences_andADailyOneWithinTheTarget() throws IOException {
        Path benchmarks = Path.of("..", "docs", "benchmarks.md");
        Ledger entity = Ledger.entityFromBenchmarks(benchmarks);
        int indexWriteUnits = Ledger.dueIndexWriteUnitsFromBenchmarks(benchmarks);
        EntityUse use = EntityUse.measure();
        Model model = new Model(large, consumption, entity);
        double perOccurrence = model.perOccurrence()
                - model.logs(consumption.logBytesPerOccurrence())
                + model.logs(use.logBytesPerOccurrence())
                + (use.events() - consumption.events()) * CostPrices.EVENTS_PER_MILLION / MILLION;
        double indexPerOccurrence = indexWriteUnits * CostPrices.DYNAMODB_WRITE_PER_MILLION / MILLION;
        double queriesPerMonth = WATCHDOG_RUNS_PER_MONTH * HOURS_PER_CHECK * DueBuckets.SHARDS;
        double queriesMonth = queriesPerMonth * READ_UNITS_PER_QUERY * CostPrices.DYNAMODB_READ_PER_MILLION / MILLION
                + large.memoryMb()
                        / 1024d
                        * WATCHDOG_SECONDS_PER_QUERY
                        * queriesPerMonth
                        * CostPrices.LAMBDA_ARM_GB_SECOND;
        double candidatesMonth = CANDIDATES_PER_ENTITY_MONTH
                * (READ_UNITS_PER_CANDIDATE * CostPrices.DYNAMODB_READ_PER_MILLION / MILLION
                        + large.memoryMb() / 1024d * WATCHDOG_SECONDS_PER_JOB * CostPrices.LAMBDA_ARM_GB_SECOND);
        int[] cadences = {24 * 60, 60, 15};
        StringBuilder table = new StringBuilder(
                "| one entity schedule, a month | daily | hourly | every 15 min |\n|---|---|---|---|\n");
        StringBuilder running = new StringBuilder("| running it (ledger, Lambda, logs, events) |");
        StringBuilder index = new StringBuilder("| watching: the due index's writes |");
        for (int minutes : cadences) {
            double occurrences = CostPrices.MINUTES_PER_MONTH / minutes;
            running.append(String.format(" $%.5f |", occurrences * perOccurrence));
            index.append(String.format(" $%.6f |", occurrences * indexPerOccurrence));
        }
        table.append(running).append('\n').append(index).append('\n');
        double daily = 0;
        for (int entities : WATCHED_ENTITIES) {
            double shared = queriesMonth / entities + candidatesMonth;
            table.append(String.format("| watching: queries and candidates, %,d entities |", entities));
            for (int ignored : cadences) {
                table.append(String.format(" $%.7f |", shared));
            }
            table.append('\n').append(String.format("| **total**, %,d entities |", entities));
            for (int minutes : cadences) {
                double occurrences = CostPrices.MINUTES_PER_MONTH / minutes;
                double month = occurrences * (perOccurrence + indexPerOccurrence) + shared;
                daily = minutes == 24 * 60 && entities == WATCHED_ENTITIES[0] ? month : daily;
                table.append(String.format(" **$%.5f** |", month));
            }
            table.append('\n');
        }
        table.append(String.format(
                "| per occurrence: ledger %d requests, %d write units and %d index write units; %.0f log bytes;"
                        + " %d events; per stage: %.0f index queries a month ($%.4f) | | | |",
                entity.requests(),
                entity.writeUnits(),
                indexWriteUnits,
                use.logBytesPerOccurrence(),
                use.events(),
                queriesPerMonth,
                queriesMonth));
        System.out.println(table);

        assertThat(daily)
                .as("a daily entity schedule's month, watched, among %,d entities", WATCHED_ENTITIES[0])
                .isLessThanOrEqualTo(MAX_DAILY_ENTITY_SCHEDULE_MONTH);
    }

    /** What the runtime writes for one entity's occurrence in steady state (after its cursor). */
    record EntityUse(double logBytesPerOccurrence, int events) {
        static EntityUse measure() {
            JobDefinition report = JobDefinition.builder("tenant-report")
                    .schedule("0 9 * * *", "UTC")
                    .perEntity(dev.punctual.job.EntityJob.parameters("locale"))
                    .job(s -> ctx -> JobResult.of("rows", 3))
                    .build();
            var acme = dev.punctual.entity.EntitySchedule.of(
                    report, "tenant-0001", null, "Europe/Paris", Map.of("locale", "fr"));
            Instant nine = Instant.parse("2026-11-30T08:00:00Z");
            InMemoryStage stage = new InMemoryStage(nine, report);
            stage.deliver(acme, nine);
            stage.lines.clear();
            stage.events.clear();
            stage.deliver(acme, nine.plus(Duration.ofDays(1)));
            return new EntityUse(
                    Consumption.bytes(stage.lines) + PLATFORM_LINE_BYTES + PLATFORM_LINES * LOG_EVENT_OVERHEAD,
                    stage.events.size());
        }
    }

    /** The chunk counts a long occurrence is run with on moto, to fit its fixed and per-chunk requests. */
    static final int[] LONG_CHUNKS_MEASURED = {1, 2, 10};

    /** The chunk counts the table prints, extrapolated from the fit (a long job plans at most 1,000). */
    static final int[] LONG_CHUNKS = {10, 100, 1_000};

    /** The goal for a long occurrence of 100 chunks, orchestration only (issue 37). */
    static final double MAX_LONG_OCCURRENCE_100_CHUNKS = 0.01;

    /**
     * The per-chunk floor no design on Step Functions avoids: one state transition and one Lambda request
     * per chunk. Punctual's own share per chunk (its ledger requests, its log lines, its invocation's time)
     * is held to at most as much again: a chunk's marginal cost at most twice the floor.
     */
    static final double STEP_FUNCTIONS_CHUNK_FLOOR =
            CostPrices.STEP_FUNCTIONS_TRANSITION + CostPrices.LAMBDA_REQUEST_PER_MILLION / MILLION;

    static final double MAX_LONG_CHUNK_MARGINAL = 2 * STEP_FUNCTIONS_CHUNK_FLOOR;

    /**
     * The state machine's execution log (LogLevel ALL, without execution data: LongRuns), which the
     * emulator does not write, so assumed: one log event per history event, 400 bytes each with CloudWatch's
     * 26 (the type, ids, timestamp and the execution's ARN). History events: 16 fixed (the execution's start
     * and end, 5 for each of Plan and Finish, 4 for the Map state), 7 per chunk (the iteration's start and
     * end, the Task's entered, scheduled, started, succeeded, exited) and 4 per retry (decision 0039, 1).
     */
    static final int EXECUTION_LOG_EVENT_BYTES = 400;

    static final int HISTORY_EVENTS_FIXED = 16;
    static final int HISTORY_EVENTS_PER_CHUNK = 7;
    static final int HISTORY_EVENTS_PER_RETRY = 4;

    /** Bytes of Lambda's START, END and REPORT lines of one invocation, with CloudWatch's per-event bytes. */
    static final int PLATFORM_BYTES_PER_INVOCATION = PLATFORM_LINE_BYTES + PLATFORM_LINES * LOG_EVENT_OVERHEAD;

    /**
     * One long occurrence (decision 0039) of 10, 100 and 1,000 chunks. Measured: the ledger's requests and
     * their units (a request-pricing interceptor on moto), the runtime's log lines and lifecycle events, for
     * 1, 2 and 10 chunks and for 2 chunks with one failed attempt; the fixed and per-chunk counts are fitted
     * from 1 and 2 chunks, checked at 10, and extrapolated. Derived: Step Functions' transitions from the
     * synthesised definition, and Lambda's invocations (the delivery and one per Task state entered), each
     * billed {@link #BILLED_SECONDS_PER_OCCURRENCE} at the default pool's memory. The chunks' own work (the
     * team's code) is not included.
     */
    @Test
    void longOccurrence_printed_for10To1000Chunks_aChunkWithinTwiceStepFunctionsFloor_100ChunksUnderACent() {
        Model model = new Model(large, consumption, ledger);
        Map<Integer, LongOccurrenceUse> measured = new TreeMap<>();
        for (int chunks : LONG_CHUNKS_MEASURED) {
            measured.put(chunks, LongOccurrenceUse.measure(chunks, false));
        }
        LongOccurrenceUse retried = LongOccurrenceUse.measure(2, true);
        LongOccurrenceUse one = measured.get(1);
        LongOccurrenceUse two = measured.get(2);
        LongOccurrenceUse ten = measured.get(10);
        assertThat(measured.values())
                .allSatisfy(u -> assertThat(u.failedRequests()).isZero());

        List<String> operations = List.of("UpdateItem", "PutItem", "GetItem", "TransactWriteItems", "Query");
        Map<String, Fit> requests = new TreeMap<>();
        for (String operation : operations) {
            requests.put(operation, Fit.exact(operation, measured, u -> u.requests(operation)));
        }
        Fit writeUnits = Fit.exact("write units", measured, LongOccurrenceUse::writeUnits);
        Fit getReadUnits = Fit.exact("GetItem read units", measured, LongOccurrenceUse::getReadUnits);
        Fit queryBytes = Fit.exact("the finish's Query bytes", measured, LongOccurrenceUse::queryBytes);
        Fit events = Fit.exact("lifecycle events", measured, LongOccurrenceUse::events);
        // The outcome line names the chunk count, one digit more from 10: a few bytes of slack.
        Fit logBytes = Fit.within("log bytes", measured, u -> Consumption.bytes(u.lines()), 8);
        assertThat(requests.get("Query").fixed())
                .as("one Query of the chunk records")
                .isEqualTo(1);
        assertThat(requests.get("Query").perChunk()).isZero();

        LongJobDefinition definition = LongJobDefinition.of(
                LongJobs.job(LongOccurrenceUse.JOB, Duration.ofHours(6), 4, LongOccurrenceUse.MAX_ATTEMPTS));
        double memoryGb = large.memoryMb() / 1024d;
        double invocationPrice = CostPrices.LAMBDA_REQUEST_PER_MILLION / MILLION
                + memoryGb * BILLED_SECONDS_PER_OCCURRENCE * CostPrices.LAMBDA_ARM_GB_SECOND;

        record Row(
                long transitions,
                long invocations,
                long requests,
                double writeUnits,
                double readUnits,
                double logBytes,
                double executionLogBytes,
                double stepFunctions,
                double lambda,
                double dynamo,
                double logs,
                double executionLogs,
                double others) {
            double total() {
                return stepFunctions + lambda + dynamo + logs + executionLogs + others;
            }
        }
        java.util.function.IntFunction<Row> row = chunks -> {
            long transitions = transitions(definition.asl(), chunks);
            long invocations = 1 + tasksEntered(definition.asl(), chunks);
            long sent = requests.values().stream()
                    .mapToLong(f -> Math.round(f.at(chunks)))
                    .sum();
            double wcu = writeUnits.at(chunks);
            double rcu = getReadUnits.at(chunks) + Math.max(1, Math.ceil(queryBytes.at(chunks) / 4096));
            double bytes = logBytes.at(chunks) + invocations * PLATFORM_BYTES_PER_INVOCATION;
            double historyBytes =
                    (HISTORY_EVENTS_FIXED + HISTORY_EVENTS_PER_CHUNK * (double) chunks) * EXECUTION_LOG_EVENT_BYTES;
            return new Row(
                    transitions,
                    invocations,
                    sent,
                    wcu,
                    rcu,
                    bytes,
                    historyBytes,
                    transitions * CostPrices.STEP_FUNCTIONS_TRANSITION,
                    invocations * invocationPrice,
                    wcu * CostPrices.DYNAMODB_WRITE_PER_MILLION / MILLION
                            + rcu * CostPrices.DYNAMODB_READ_PER_MILLION / MILLION,
                    model.logs(bytes),
                    model.logs(historyBytes),
                    CostPrices.SCHEDULER_PER_MILLION / MILLION
                            + events.at(chunks) * CostPrices.EVENTS_PER_MILLION / MILLION);
        };
        // A chunk's marginal cost, averaged from 10 to 1,000 chunks so the finish's Query, rounded up to 4 KB
        // as a whole, counts in it (one more read unit every 4 KB of chunk records).
        double perChunk = (row.apply(1_000).total() - row.apply(10).total()) / 990;
        double retryTransitions = 1; // the Chunk Task entered again: Step Functions bills a retry as a transition
        double retryCost = retryTransitions * CostPrices.STEP_FUNCTIONS_TRANSITION
                + invocationPrice
                + (retried.writeUnits() - two.writeUnits()) * CostPrices.DYNAMODB_WRITE_PER_MILLION / MILLION
                + (retried.getReadUnits() - two.getReadUnits()) * CostPrices.DYNAMODB_READ_PER_MILLION / MILLION
                + model.logs(Consumption.bytes(retried.lines())
                        - Consumption.bytes(two.lines())
                        + PLATFORM_BYTES_PER_INVOCATION
                        + HISTORY_EVENTS_PER_RETRY * EXECUTION_LOG_EVENT_BYTES);

        StringBuilder table = new StringBuilder(
                "| one long occurrence | 10 chunks | 100 chunks | 1,000 chunks |\n|---|---:|---:|---:|\n");
        List<Row> rows = IntStream.of(LONG_CHUNKS).mapToObj(row).toList();
        table.append(cells(
                "Step Functions STANDARD",
                rows,
                r -> String.format("%,d transitions $%.5f", r.transitions(), r.stepFunctions())));
        table.append(cells(
                "Lambda (200 ms each at " + large.memoryMb() + " MB)",
                rows,
                r -> String.format("%,d invocations $%.5f", r.invocations(), r.lambda())));
        table.append(cells(
                "DynamoDB",
                rows,
                r -> String.format(
                        "%,d requests, %,.0f WCU, %,.0f RCU $%.5f",
                        r.requests(), r.writeUnits(), r.readUnits(), r.dynamo())));
        table.append(cells(
                "CloudWatch Logs (kept " + large.retentionDays() + " days)",
                rows,
                r -> String.format("%,.0f bytes $%.5f", r.logBytes(), r.logs())));
        table.append(cells(
                "Step Functions execution log (assumed, " + EXECUTION_LOG_EVENT_BYTES + " bytes per history event)",
                rows,
                r -> String.format("%,.0f bytes $%.5f", r.executionLogBytes(), r.executionLogs())));
        table.append(cells(
                String.format("Scheduler (1) and lifecycle events (%.0f)", events.at(0)),
                rows,
                r -> String.format("$%.6f", r.others())));
        table.append(cells("**total**", rows, r -> String.format("**$%.4f**", r.total())));
        table.append(String.format(
                "per chunk: $%.7f (Step Functions %d transition, Lambda 1 invocation, DynamoDB %s, %.0f log bytes,"
                        + " %d execution log events);"
                        + " fixed: $%.7f; one failed chunk attempt adds $%.7f (1 transition, 1 invocation, %d WCU,"
                        + " %.0f RCU, %.0f log bytes)%n",
                perChunk,
                (int) retryTransitions,
                perChunkRequests(requests),
                logBytes.perChunk() + PLATFORM_BYTES_PER_INVOCATION,
                HISTORY_EVENTS_PER_CHUNK,
                row.apply(0).total(),
                retryCost,
                retried.writeUnits() - two.writeUnits(),
                retried.getReadUnits() - two.getReadUnits(),
                Consumption.bytes(retried.lines()) - Consumption.bytes(two.lines()) + PLATFORM_BYTES_PER_INVOCATION));
        table.append(String.format(
                "measured on moto (1, 2, 10 chunks; items: chunk record %.0f bytes as the finish's Query returns it);"
                        + " step lines: long plan %.0f bytes, long chunk %.0f bytes; fitted %s%n",
                queryBytes.perChunk(),
                Consumption.bytes(ten.linesOf("long plan")),
                Consumption.bytes(ten.linesOf("long chunk")) / 10,
                Stream.concat(requests.values().stream(), Stream.of(writeUnits, getReadUnits, queryBytes, logBytes))
                        .toList()));
        System.out.println(table);

        assertThat(perChunk)
                .as("a chunk's marginal cost, against twice Step Functions' floor of $%.7f", STEP_FUNCTIONS_CHUNK_FLOOR)
                .isLessThanOrEqualTo(MAX_LONG_CHUNK_MARGINAL);
        assertThat(row.apply(100).total())
                .as("a 100-chunk occurrence")
                .isLessThanOrEqualTo(MAX_LONG_OCCURRENCE_100_CHUNKS);
        assertThat(one.linesOf("long plan")).hasSize(1);
        assertThat(ten.linesOf("long chunk")).hasSize(10);
    }

    /**
     * State transitions of one execution of a linear definition, every state entered once: a Map state
     * counts itself and, per item, the states of its processor.
     */
    static long transitions(Map<String, Object> asl, int items) {
        long count = 0;
        for (Object value : ((Map<?, ?>) asl.get("States")).values()) {
            Map<?, ?> state = (Map<?, ?>) value;
            assertThat(state.containsKey("Next") || Boolean.TRUE.equals(state.get("End")))
                    .as("a linear definition")
                    .isTrue();
            count++;
            if ("Map".equals(state.get("Type"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> processor = (Map<String, Object>) state.get("ItemProcessor");
                count += items * transitions(processor, 0);
            }
        }
        return count;
    }

    /** Task states entered in one execution: each is one Lambda invocation. */
    static long tasksEntered(Map<String, Object> asl, int items) {
        long count = 0;
        for (Object value : ((Map<?, ?>) asl.get("States")).values()) {
            Map<?, ?> state = (Map<?, ?>) value;
            if ("Task".equals(state.get("Type"))) {
                count++;
            } else if ("Map".equals(state.get("Type"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> processor = (Map<String, Object>) state.get("ItemProcessor");
                count += items * tasksEntered(processor, 0);
            }
        }
        return count;
    }

    private static <R> String cells(String label, List<R> rows, java.util.function.Function<R, String> cell) {
        StringBuilder line = new StringBuilder("| ").append(label).append(" |");
        rows.forEach(r -> line.append(' ').append(cell.apply(r)).append(" |"));
        return line.append('\n').toString();
    }

    private static String perChunkRequests(Map<String, Fit> requests) {
        List<String> parts = new ArrayList<>();
        requests.forEach((operation, fit) -> {
            if (fit.perChunk() != 0) {
                parts.add(String.format("%.0f %s", fit.perChunk(), operation));
            }
        });
        return String.join(", ", parts);
    }

    /**
     * A quantity fitted as {@code fixed + perChunk × chunks} from the runs of 1 and 2 chunks, and checked
     * against the run of 10 within {@code slack}.
     */
    record Fit(String what, double fixed, double perChunk) {

        static Fit exact(
                String what,
                Map<Integer, LongOccurrenceUse> runs,
                java.util.function.ToDoubleFunction<LongOccurrenceUse> q) {
            return within(what, runs, q, 0);
        }

        static Fit within(
                String what,
                Map<Integer, LongOccurrenceUse> runs,
                java.util.function.ToDoubleFunction<LongOccurrenceUse> q,
                double slack) {
            double one = q.applyAsDouble(runs.get(1));
            double per = q.applyAsDouble(runs.get(2)) - one;
            Fit fit = new Fit(what, one - per, per);
            assertThat(q.applyAsDouble(runs.get(10)))
                    .as("%s is linear in the chunks: fitted %s", what, fit)
                    .isCloseTo(fit.at(10), org.assertj.core.data.Offset.offset(slack));
            return fit;
        }

        double at(int chunks) {
            return fixed + perChunk * chunks;
        }

        @Override
        public String toString() {
            return String.format("%s %.0f + %.0f/chunk", what, fixed, perChunk);
        }
    }

    @Test
    void defaultOutcomeLine_publishesNoMetricNamingTheJob_optedInLinePublishesEight() {
        assertThat(consumption.stageMetrics()).noneMatch(m -> m.contains("job="));
        assertThat(consumption.optInMetricsPerJob()).isEqualTo(8);
    }

    /** The figures of the model, all per month. */
    record Model(TemplateCosts template, Consumption use, Ledger ledger) {

        double perOccurrence() {
            double gbSeconds = template.memoryMb() / 1024d * BILLED_SECONDS_PER_OCCURRENCE;
            return CostPrices.SCHEDULER_PER_MILLION / MILLION
                    + CostPrices.LAMBDA_REQUEST_PER_MILLION / MILLION
                    + gbSeconds * CostPrices.LAMBDA_ARM_GB_SECOND
                    + ledger.writeUnits() * CostPrices.DYNAMODB_WRITE_PER_MILLION / MILLION
                    + use.events() * CostPrices.EVENTS_PER_MILLION / MILLION
                    + logs(use.logBytesPerOccurrence());
        }

        double logs(double bytes) {
            return bytes
                    / GB
                    * (CostPrices.LOGS_INGEST_PER_GB
                            + CostPrices.LOGS_STORE_PER_GB_MONTH * template.retentionDays() / 30d);
        }

        /** What every job costs whatever its cadence: the watchdog checks it every hour. */
        double perJobMonthly() {
            double reads = use.watchdogReadsPerJob() * WATCHDOG_RUNS_PER_MONTH;
            double gbSeconds = template.memoryMb() / 1024d * WATCHDOG_SECONDS_PER_JOB * WATCHDOG_RUNS_PER_MONTH;
            return reads * CostPrices.DYNAMODB_READ_PER_MILLION / MILLION + gbSeconds * CostPrices.LAMBDA_ARM_GB_SECOND;
        }

        double marginal(int cadenceMinutes) {
            return CostPrices.MINUTES_PER_MONTH / cadenceMinutes * perOccurrence() + perJobMonthly();
        }

        double optIn() {
            return use.optInMetricsPerJob() * CostPrices.METRIC_MONTH
                    + template.optInAlarmMetricsPerJob() * CostPrices.ALARM_METRIC_MONTH;
        }

        double fixedMetrics() {
            return use.stageMetricsUpperBound() * CostPrices.METRIC_MONTH;
        }

        double fixed() {
            return template.stageAlarmMetrics() * CostPrices.ALARM_METRIC_MONTH
                    + fixedMetrics()
                    + template.dashboards() * CostPrices.DASHBOARD_MONTH
                    + template.insightRules() * CostPrices.INSIGHT_RULE_MONTH
                    + template.kmsKeys() * CostPrices.KMS_KEY_MONTH
                    + WATCHDOG_RUNS_PER_MONTH * (perOccurrence() + logs(use.watchdogLogBytesPerRun()));
        }

        double stage(int jobs, int cadenceMinutes) {
            return fixed() + jobs * marginal(cadenceMinutes);
        }

        String table() {
            StringBuilder out = new StringBuilder();
            out.append("Punctual cost model, us-east-1 list prices checked ")
                    .append(CostPrices.CHECKED)
                    .append(", free tiers ignored, USD per month\n");
            out.append(String.format(
                    "per occurrence: 1 schedule invocation, 1 Lambda request (%.0f ms at %d MB), %d ledger requests"
                            + " / %d write units, %d lifecycle event, %d log lines / %.0f bytes; $%.8f%n",
                    BILLED_SECONDS_PER_OCCURRENCE * 1000,
                    template.memoryMb(),
                    ledger.requests(),
                    ledger.writeUnits(),
                    use.events(),
                    use.linesPerOccurrence(),
                    use.logBytesPerOccurrence(),
                    perOccurrence()));
            out.append(String.format(
                    "  of which: Scheduler $%.8f, Lambda $%.8f, DynamoDB $%.8f, EventBridge $%.8f, Logs $%.8f"
                            + " (kept %d days)%n",
                    CostPrices.SCHEDULER_PER_MILLION / MILLION,
                    CostPrices.LAMBDA_REQUEST_PER_MILLION / MILLION
                            + template.memoryMb()
                                    / 1024d
                                    * BILLED_SECONDS_PER_OCCURRENCE
                                    * CostPrices.LAMBDA_ARM_GB_SECOND,
                    ledger.writeUnits() * CostPrices.DYNAMODB_WRITE_PER_MILLION / MILLION,
                    use.events() * CostPrices.EVENTS_PER_MILLION / MILLION,
                    logs(use.logBytesPerOccurrence()),
                    template.retentionDays()));
            out.append(String.format(
                    "fixed cost of a stage: $%.2f = alarms %d metrics $%.2f + custom metrics <= %d $%.2f"
                            + " + dashboards %d $%.2f + Contributor Insights rules %d $%.2f + KMS keys %d $%.2f"
                            + " + watchdog %.0f runs $%.2f%n",
                    fixed(),
                    template.stageAlarmMetrics(),
                    template.stageAlarmMetrics() * CostPrices.ALARM_METRIC_MONTH,
                    use.stageMetricsUpperBound(),
                    fixedMetrics(),
                    template.dashboards(),
                    template.dashboards() * CostPrices.DASHBOARD_MONTH,
                    template.insightRules(),
                    template.insightRules() * CostPrices.INSIGHT_RULE_MONTH,
                    template.kmsKeys(),
                    template.kmsKeys() * CostPrices.KMS_KEY_MONTH,
                    WATCHDOG_RUNS_PER_MONTH,
                    WATCHDOG_RUNS_PER_MONTH * (perOccurrence() + logs(use.watchdogLogBytesPerRun()))));
            out.append(String.format(
                    "opt-in features' reasons (not in the fixed cost): %s, +$%.2f each in a month it occurs%n",
                    String.join(", ", Consumption.featureReasons()), CostPrices.METRIC_MONTH));
            out.append(String.format(
                    "every job, any cadence (watchdog: %d reads per hourly check): $%.5f%n",
                    use.watchdogReadsPerJob(), perJobMonthly()));
            out.append(String.format(
                    "opt-in per-job metrics (%d metrics, an alarm reading %d): +$%.2f per job%n",
                    use.optInMetricsPerJob(), template.optInAlarmMetricsPerJob(), optIn()));
            out.append("| | every 1 min | every 15 min | every 60 min |\n|---|---:|---:|---:|\n");
            out.append("| marginal cost of a job");
            for (int cadence : CADENCES_MINUTES) {
                out.append(String.format(" | $%.4f", marginal(cadence)));
            }
            out.append(" |\n");
            for (int jobs : JOB_COUNTS) {
                out.append(String.format("| stage of %,d jobs", jobs));
                for (int cadence : CADENCES_MINUTES) {
                    out.append(String.format(" | $%,.2f", stage(jobs, cadence)));
                }
                out.append(" |\n");
            }
            double old = fixed() + 300 * (marginal(15) + optIn());
            double oldMetrics = fixedMetrics() + 300 * optIn();
            out.append(String.format(
                    "old design (every job with per-job metrics and a missed-run alarm), 300 jobs every 15 min:"
                            + " $%,.2f, of which metrics and alarms $%,.2f (%.0f%%); now $%,.2f%n",
                    old, oldMetrics, 100 * oldMetrics / old, stage(300, 15)));
            return out.toString();
        }
    }

    /** What the synthesised template holds that costs money. */
    record TemplateCosts(
            int stageAlarmMetrics,
            Map<String, Integer> jobAlarmMetrics,
            int unattributedJobStackAlarms,
            int dashboards,
            int insightRules,
            int kmsKeys,
            int memoryMb,
            int retentionDays) {

        static TemplateCosts of(StageStack stage) {
            Template template = Template.fromStack(stage);
            int stageAlarmMetrics = Templates.properties(template, "AWS::CloudWatch::Alarm").values().stream()
                    .mapToInt(TemplateCosts::metricsRead)
                    .sum();
            Map<String, Integer> byJob = new TreeMap<>();
            int unattributed = 0;
            int keys = Templates.properties(template, "AWS::KMS::Key").size();
            for (JobsStack jobs : stage.jobStacks()) {
                Template nested = Template.fromStack(jobs);
                keys += Templates.properties(nested, "AWS::KMS::Key").size();
                for (Map<String, Object> alarm :
                        Templates.properties(nested, "AWS::CloudWatch::Alarm").values()) {
                    Set<String> named = jobsNamedBy(alarm);
                    if (named.size() == 1) {
                        byJob.merge(named.iterator().next(), metricsRead(alarm), Integer::sum);
                    } else {
                        unattributed++;
                    }
                }
            }
            // The jobs of the model run in the default pool.
            String defaultPool = Templates.logicalId(
                    stage.pools().get(FunctionPool.DEFAULT.name()).function());
            int memory = ((Number) Templates.properties(template, "AWS::Lambda::Function")
                            .get(defaultPool)
                            .get("MemorySize"))
                    .intValue();
            String defaultLogs = Templates.logicalId(
                    stage.pools().get(FunctionPool.DEFAULT.name()).logGroup());
            int retention = ((Number) Templates.properties(template, "AWS::Logs::LogGroup")
                            .get(defaultLogs)
                            .get("RetentionInDays"))
                    .intValue();
            return new TemplateCosts(
                    stageAlarmMetrics,
                    byJob,
                    unattributed,
                    Templates.properties(template, "AWS::CloudWatch::Dashboard").size(),
                    Templates.properties(template, "AWS::CloudWatch::InsightRule")
                            .size(),
                    keys,
                    memory,
                    retention);
        }

        /** CloudWatch bills an alarm per metric it reads: one, or each metric of its metric math. */
        static int metricsRead(Map<String, Object> alarm) {
            if (alarm.get("Metrics") instanceof List<?> metrics) {
                return (int) metrics.stream()
                        .filter(m -> m instanceof Map<?, ?> map && map.containsKey("MetricStat"))
                        .count();
            }
            return 1;
        }

        private static Set<String> jobsNamedBy(Map<String, Object> alarm) {
            Set<String> jobs = new TreeSet<>();
            Matcher m = Pattern.compile("\\{Name=job, Value=([a-z0-9-]+)\\}").matcher(alarm.toString());
            while (m.find()) {
                jobs.add(m.group(1));
            }
            return jobs;
        }

        int optInAlarmMetricsPerJob() {
            return jobAlarmMetrics.values().stream()
                    .mapToInt(Integer::intValue)
                    .max()
                    .orElse(0);
        }
    }

    /** The ledger's cost of one scheduled occurrence after the cursor, own lock group (docs/benchmarks.md). */
    record Ledger(int requests, int writeUnits) {

        static Ledger fromBenchmarks(Path benchmarks) throws IOException {
            Matcher row = Pattern.compile(
                            "\\| scheduled occurrence after the cursor, job in its own lock group \\| \\*\\*(\\d+)\\*\\*"
                                    + " \\|[^|]*\\| \\*\\*(\\d+)\\*\\* \\|")
                    .matcher(Files.readString(benchmarks));
            assertThat(row.find())
                    .as("the LedgerCostTest row in %s", benchmarks)
                    .isTrue();
            return new Ledger(Integer.parseInt(row.group(1)), Integer.parseInt(row.group(2)));
        }

        /** The due index's write units per entity occurrence (decision 0031): LedgerCostTest's index row. */
        static int dueIndexWriteUnitsFromBenchmarks(Path benchmarks) throws IOException {
            Matcher row = Pattern.compile("\\| the due index's entry of that entity occurrence \\|"
                            + " \\*\\*(\\d+)\\*\\* \\|[^|]*\\| \\*\\*(\\d+)\\*\\* \\|")
                    .matcher(Files.readString(benchmarks));
            assertThat(row.find())
                    .as("the LedgerCostTest due index row in %s", benchmarks)
                    .isTrue();
            assertThat(Integer.parseInt(row.group(1)))
                    .as("extra requests for the index")
                    .isZero();
            return Integer.parseInt(row.group(2));
        }

        /**
         * An entity's occurrence on its own lease, the default path of a per-entity job (decision 0029, 5):
         * fewer requests than a shared group's, as many write units, since each transaction bills both items.
         */
        static Ledger entityFromBenchmarks(Path benchmarks) throws IOException {
            Matcher row = Pattern.compile("\\| an entity's occurrence after its cursor, the entity's own lease \\|"
                            + " \\*\\*(\\d+)\\*\\* \\|[^|]*\\| \\*\\*(\\d+)\\*\\* \\|")
                    .matcher(Files.readString(benchmarks));
            assertThat(row.find())
                    .as("the LedgerCostTest entity row in %s", benchmarks)
                    .isTrue();
            return new Ledger(Integer.parseInt(row.group(1)), Integer.parseInt(row.group(2)));
        }
    }

    /** What the code writes and emits, measured on the runtime with the in-memory ledger. */
    record Consumption(
            int linesPerOccurrence,
            double logBytesPerOccurrence,
            int events,
            Set<String> stageMetrics,
            int optInMetricsPerJob,
            int watchdogReadsPerJob,
            double watchdogLogBytesPerRun) {

        /**
         * The stage-wide metrics every stage may publish, with one {@code Occurrences} per reason code
         * (each has one verdict), less the reasons only a feature a stage opts into can give
         * ({@link #FEATURE_REASONS}): CloudWatch bills a custom metric only in a month it is published.
         */
        int stageMetricsUpperBound() {
            long others = stageMetrics.stream()
                    .filter(m -> !m.startsWith("Occurrences{"))
                    .count();
            return Math.toIntExact(others + reasonCodes());
        }

        static int reasonCodes() {
            long unpublished = java.util.Arrays.stream(Reason.values())
                    .map(Reason::name)
                    .filter(UNPUBLISHED_REASONS::contains)
                    .count();
            return Math.toIntExact(Reason.values().length - featureReasons().size() - unpublished);
        }

        /** The reasons of opt-in features present in this build's vocabulary, each one metric when it occurs. */
        static List<String> featureReasons() {
            return java.util.Arrays.stream(Reason.values())
                    .map(Reason::name)
                    .filter(FEATURE_REASONS::contains)
                    .toList();
        }

        static Consumption measure() {
            // A 15-minute job in steady state: one occurrence after the cursor.
            InMemoryStage stage = new InMemoryStage(T0, job("tick", false), job("vip", true));
            stage.deliver("tick", T0, 1);
            stage.lines.clear();
            stage.events.clear();
            stage.deliver("tick", T0.plus(Duration.ofMinutes(15)), 1);
            List<String> lines = List.copyOf(stage.lines);
            int events = stage.events.size();
            Set<String> stageMetrics = new TreeSet<>(metrics(lines));

            stage.lines.clear();
            stage.deliver("vip", T0.plus(Duration.ofMinutes(15)), 1);
            int optIn = (int) metrics(stage.lines).stream()
                    .filter(m -> m.contains("job=vip"))
                    .count();

            // The watchdog: one run that finds "vip" overdue gives its lines and stage metrics.
            stage.lines.clear();
            stage.deliver(MissedRunWatchdog.ID, T0.plus(Duration.ofMinutes(127)), 1);
            List<String> watchdogLines = List.copyOf(stage.lines);
            stageMetrics.addAll(metrics(watchdogLines).stream()
                    .filter(m -> !m.contains("job="))
                    .toList());

            // Its reads per job: the same steady-state run (every job on time) over N and N+1 jobs.
            int readsPerJob = watchdogReads(2) - watchdogReads(1);
            if (watchdogReads(3) - watchdogReads(2) != readsPerJob) {
                throw new AssertionError("the watchdog's reads do not grow linearly with the jobs");
            }

            return new Consumption(
                    lines.size() + PLATFORM_LINES,
                    bytes(lines) + PLATFORM_LINE_BYTES + PLATFORM_LINES * LOG_EVENT_OVERHEAD,
                    events,
                    stageMetrics,
                    optIn,
                    readsPerJob,
                    bytes(watchdogLines.stream()
                            .filter(l -> l.contains("\"watchdog checked\""))
                            .toList()));
        }

        /**
         * Ledger reads of the second of two hourly watchdog runs over {@code jobs} 15-minute jobs, every
         * occurrence delivered on time (the first run sets the watchdog's own note, as on a live stage).
         */
        static int watchdogReads(int jobs) {
            List<JobDefinition> defs = IntStream.range(0, jobs)
                    .mapToObj(i -> job("tick-" + i, false))
                    .toList();
            InMemoryStage stage = new InMemoryStage(T0, defs.toArray(JobDefinition[]::new));
            Instant firstCheck = T0.plus(Duration.ofMinutes(67));
            Instant secondCheck = T0.plus(Duration.ofMinutes(127));
            for (Instant t = T0; t.isBefore(secondCheck); t = t.plus(Duration.ofMinutes(15))) {
                if (!t.isBefore(firstCheck) && t.minus(Duration.ofMinutes(15)).isBefore(firstCheck)) {
                    stage.deliver(MissedRunWatchdog.ID, firstCheck, 1);
                }
                for (JobDefinition d : defs) {
                    stage.deliver(d.id(), t, 1);
                }
            }
            stage.historyReads = 0;
            stage.deliver(MissedRunWatchdog.ID, secondCheck, 1);
            return stage.historyReads;
        }

        private static JobDefinition job(String id, boolean perJobMetrics) {
            JobDefinition.Builder builder =
                    JobDefinition.builder(id).schedule("*/15 * * * *", "UTC").job(s -> ctx -> JobResult.of("rows", 3));
            if (perJobMetrics) {
                builder.perJobMetrics();
            }
            return builder.build();
        }

        static double bytes(List<String> lines) {
            return lines.stream()
                    .mapToInt(l -> l.getBytes(StandardCharsets.UTF_8).length + 1 + LOG_EVENT_OVERHEAD)
                    .sum();
        }

        /** The custom metrics CloudWatch extracts from EMF lines, as {@code Name{dimension=value, ...}}. */
        private static Set<String> metrics(List<String> lines) {
            Set<String> metrics = new TreeSet<>();
            for (String text : lines) {
                JsonNode line;
                try {
                    line = JSON.readTree(text);
                } catch (IOException e) {
                    throw new AssertionError(text, e);
                }
                for (JsonNode directive : line.at("/_aws/CloudWatchMetrics")) {
                    for (JsonNode set : directive.get("Dimensions")) {
                        Map<String, String> dimensions = new TreeMap<>();
                        set.forEach(name -> dimensions.put(
                                name.asText(), line.get(name.asText()).asText()));
                        directive
                                .get("Metrics")
                                .forEach(m -> metrics.add(m.get("Name").asText() + dimensions));
                    }
                }
            }
            return metrics;
        }
    }
}
