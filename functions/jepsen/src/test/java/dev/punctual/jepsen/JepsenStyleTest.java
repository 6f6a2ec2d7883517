package dev.punctual.jepsen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.LongJob;
import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.longrun.stepfunctions.EmulatorStateMachines;
import dev.punctual.testing.DynamoDbBackend;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;

/**
 * The Jepsen-style suite (docs/ledger.md, "Jepsen-style suite"): several OS processes with skewed
 * clocks race the same occurrences through the ledger and through PunctualRuntime, with injected faults,
 * leases that expire mid-run, kills between a side effect and its commit, and an operator turning
 * maintenance on and off, holding it for commands that renew it and then give it back or crash (decision
 * 0036), skipping (and unskipping) occurrences just ahead of the workers, and pausing and resuming
 * lock items (decision 0040: with and without {@code until}, each choice; {@link PauseChecks}). Their merged history and
 * the tables' final state go through {@link HistoryChecker}; any anomaly fails the test, and the run's
 * directory under {@code target/jepsen/} keeps the histories, the processes' logs and {@code summary.txt}.
 *
 * <p>{@code ./mvnw -q -pl functions/jepsen -am verify -Dtest=JepsenStyleTest -Dsurefire.failIfNoSpecifiedTests=false}
 * runs the CI profile; add {@code -Dpunctual.jepsen=long} for the long one.
 */
class JepsenStyleTest {

    @Test
    void processesWithSkewedClocks_faultsKillsAndMaintenance_leaveAHistoryWithoutAnomalies() throws Exception {
        JepsenProfile profile = JepsenProfile.selected();
        DynamoDbBackend backend = DynamoDbHarness.backend();
        DynamoDbClient dynamo = DynamoDbHarness.client();
        String ledgerTable = TestTables.uniqueName(JepsenStyleTest.class, "ledger");
        String domainTable = TestTables.uniqueName(JepsenStyleTest.class, "domain");
        LedgerTable.create(dynamo, ledgerTable);
        LedgerTable.create(dynamo, domainTable); // a single-table shape: pk (S), sk (S)
        Path dir = Path.of(
                        "target",
                        "jepsen",
                        profile.name() + "-"
                                + DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss")
                                        .format(java.time.LocalDateTime.now()))
                .toAbsolutePath();
        Files.createDirectories(dir);
        // The long job's state machine on moto, once, before the workers start (as the emulator's CLI does).
        EmulatorStateMachines.createIfMissing(
                backend.endpoint(), DynamoDbHarness.REGION, JepsenWorker.STAGE, longJobCatalog());
        // Every round's occurrence is already due (and well inside the late-delivery limit) for every clock.
        long firstOccurrence = Instant.now()
                .truncatedTo(ChronoUnit.MINUTES)
                .minus(JepsenJobs.EVERY.multipliedBy(profile.rounds() + 1L))
                .toEpochMilli();
        try {
            JepsenCluster.Outcome outcome = new JepsenCluster(
                            profile, dir, backend.endpoint().toString())
                    .run(ledgerTable, domainTable, firstOccurrence);
            List<Op> history = HistoryLog.readAll(dir);
            FinalState state = finalState(dynamo, ledgerTable, domainTable, history, backend);
            HistoryChecker.Result result = HistoryChecker.check(history, state);
            String summary = summary(profile, outcome, result);
            Files.writeString(dir.resolve("summary.txt"), summary);
            System.out.println(summary);

            assertThat(outcome.failures()).as("processes that failed").isEmpty();
            assertThat(result.anomalies())
                    .as("anomalies (histories in %s)", dir)
                    .isEmpty();
            Map<String, Long> f = result.figures();
            assertThat(f.get("faults.injected")).as("faults injected").isPositive();
            assertThat(f.get("maintenance.holds")).as("maintenance holds").isPositive();
            assertThat(f.get("maintenance.commandHolds")).as("command holds").isPositive();
            assertThat(f.get("op.MAINT_RENEW")).as("command holds' renewals").isPositive();
            assertThat(f.get("maintenance.renewalsExtending"))
                    .as("acknowledged renewals that extended a hold")
                    .isPositive();
            assertThat(f.get("maintenance.renewalsShortening"))
                    .as("acknowledged renewals that shortened a hold (a take's wait given back)")
                    .isPositive();
            assertThat(f.get("op.MAINT_RELEASE")).as("command holds given back").isPositive();
            assertThat(f.get("maintenance.commandHoldsAbandoned"))
                    .as("command holds left to lapse by a crashed command")
                    .isPositive();
            assertThat(f.get("payloads.refused")).as("bad payloads sent").isPositive();
            assertThat(f.get("completions.fenced")).as("completions fenced").isPositive();
            assertThat(f.get("entity.leasesGranted"))
                    .as("leases granted on the entity's own lease")
                    .isPositive();
            assertThat(f.get("entity.claimsUnderMaintenance"))
                    .as("entity claims refused by a hold on their job's group")
                    .isPositive();
            assertThat(f.get("skips.planned")).as("operator's skips planned").isPositive();
            assertThat(f.get("claims.operatorSkipped"))
                    .as("claims refused by an operator's skip")
                    .isPositive();
            assertThat(f.get("pauses.set")).as("operator's pauses set").isPositive();
            assertThat(f.get("claims.paused")).as("claims refused by a pause").isPositive();
            // Not asserted: whether a claim meets a span kept refused after a skip-paused resume depends on how
            // many of the run's resumes draw skip-paused and on the workers' pace (CI met 8 in one run and 0 in
            // the next). The summary prints the count; PauseChecksTest shows PAUSE_IGNORED failing on such a
            // claim in a hand-made history.
            assertThat(outcome.kills())
                    .as("processes killed between side effect and commit")
                    .isPositive();
            assertThat(f.get("long.executionsStarted"))
                    .as("long occurrences' executions started on moto")
                    .isPositive();
            assertThat(f.get("long.chunkSuccessesRecorded"))
                    .as("long occurrences' chunks recorded")
                    .isPositive();
            assertThat(f.get("long.occurrencesSucceeded"))
                    .as("long occurrences completed SUCCEEDED")
                    .isPositive();
            assertThat(f.get("long.killsBeforeStart") + f.get("long.killsBeforeChunkRecord"))
                    .as("long occurrences' processes killed (before the start, before a chunk's record)")
                    .isPositive();
        } finally {
            dynamo.deleteTable(b -> b.tableName(ledgerTable));
            dynamo.deleteTable(b -> b.tableName(domainTable));
        }
    }

    /** A catalog of the long job alone: what {@code EmulatorStateMachines} creates its state machine from. */
    private static JobCatalog longJobCatalog() {
        return JobCatalog.of(JepsenWorker.longJob(
                JobDefinition.builder(JepsenJobs.CLOSE)
                        .schedule(JepsenJobs.CRON, "UTC")
                        .lockGroup(JepsenJobs.BATCH)
                        .maxAttempts(JepsenJobs.MAX_ATTEMPTS),
                new LongJob() {
                    @Override
                    public List<String> plan(JobContext context) {
                        return JepsenJobs.CHUNKS;
                    }

                    @Override
                    public JobResult chunk(JobContext context, String key) {
                        return JobResult.of("chunk", key);
                    }

                    @Override
                    public JobResult finish(JobContext context, ChunkTally tally) {
                        return JobResult.of("chunks", tally.succeeded());
                    }
                }));
    }

    /** What the tables hold for every occurrence and group the history names, read consistently. */
    static FinalState finalState(
            DynamoDbClient dynamo, String ledgerTable, String domainTable, List<Op> history, DynamoDbBackend backend) {
        RunLedger clean = DynamoDbRunLedger.create(
                dynamo,
                ledgerTable,
                Clock.systemUTC(),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                Sleeper.real());
        Set<RunKey> keys = new LinkedHashSet<>();
        for (Op op : history) {
            if (op.job() != null && op.occ() != null && JepsenJobs.JOBS.contains(op.job())) {
                keys.add(new RunKey(op.job(), Instant.ofEpochMilli(op.occ())));
            }
        }
        Map<String, FinalState.StoredRun> runs = new HashMap<>();
        for (RunKey key : keys) {
            clean.run(key)
                    .ifPresent(r -> runs.put(
                            key.jobId() + "@" + key.scheduledTime(),
                            new FinalState.StoredRun(
                                    r.status().name(),
                                    r.ownerToken(),
                                    r.fence(),
                                    r.skip().isPresent())));
        }
        Map<String, Long> lockFences = new HashMap<>();
        Map<String, FinalState.DomainItem> domain = new HashMap<>();
        FencedDomain domainTableReader = new FencedDomain(dynamo, domainTable);
        // The groups maintenance holds and the items leases are taken on: an entity's own lease is its
        // item lock#job:entity, not its job's group.
        Set<String> locks = new LinkedHashSet<>(JepsenJobs.GROUPS);
        locks.addAll(JepsenJobs.LEASES);
        for (String group : locks) {
            Map<String, AttributeValue> lock = dynamo.getItem(b -> b.tableName(ledgerTable)
                            .key(Items.key("lock#" + group, "lock"))
                            .consistentRead(true))
                    .item();
            lockFences.put(group, Items.number(lock, "leaseFence"));
        }
        for (String group : JepsenJobs.LEASES) {
            Map<String, AttributeValue> item = domainTableReader.read(group);
            domain.put(group, new FinalState.DomainItem(Items.number(item, "fence"), Items.number(item, "seq")));
        }
        Map<String, FinalState.LongState> longRuns = new HashMap<>();
        for (RunKey key : keys) {
            if (!JepsenJobs.isLong(key.jobId())) {
                continue;
            }
            String occurrence = key.jobId() + "@" + key.scheduledTime();
            Optional<ExecutionRecord> noted = clean.longRuns().execution(key);
            Map<String, FinalState.StoredChunk> chunks = new HashMap<>();
            for (ChunkRecord c : clean.longRuns().chunks(key)) {
                chunks.put(c.chunk(), new FinalState.StoredChunk(c.status().name(), c.fence(), c.attempts()));
            }
            Map<String, FinalState.DomainItem> effects = new HashMap<>();
            for (String chunk : JepsenJobs.CHUNKS) {
                Map<String, AttributeValue> item = domainTableReader.readChunk(occurrence, chunk);
                if (item != null && !item.isEmpty()) {
                    effects.put(
                            chunk, new FinalState.DomainItem(Items.number(item, "fence"), Items.number(item, "seq")));
                }
            }
            longRuns.put(
                    occurrence,
                    new FinalState.LongState(
                            noted.map(ExecutionRecord::name).orElse(null),
                            noted.map(ExecutionRecord::planned).orElse(ExecutionRecord.NOT_PLANNED),
                            chunks,
                            effects));
        }
        return new FinalState(true, runs, lockFences, domain, longRuns, executions(backend, longRuns.keySet()));
    }

    /**
     * Every execution moto lists for the long job's state machine whose input's claim is one of these
     * occurrences (the emulator may keep executions of earlier runs), with the claim's fence.
     */
    private static List<FinalState.StoredExecution> executions(DynamoDbBackend backend, Set<String> occurrences) {
        List<FinalState.StoredExecution> out = new java.util.ArrayList<>();
        try (SfnClient sfn = SfnClient.builder()
                .endpointOverride(backend.endpoint())
                .region(DynamoDbHarness.REGION)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            String machine =
                    EmulatorStateMachines.prefix(DynamoDbHarness.REGION, JepsenWorker.STAGE) + JepsenJobs.CLOSE;
            for (ExecutionListItem listed :
                    sfn.listExecutionsPaginator(b -> b.stateMachineArn(machine)).executions()) {
                String input = sfn.describeExecution(b -> b.executionArn(listed.executionArn()))
                        .input();
                Op read = RecordingExecutions.describe(
                                Op.of("final", 0, Op.Kind.EXEC_START), JepsenJobs.CLOSE, listed.name(), input)
                        .build();
                if (read.occ() != null && occurrences.contains(read.occurrenceKey())) {
                    out.add(new FinalState.StoredExecution(
                            listed.name(), read.occurrenceKey(), read.fence(), listed.statusAsString()));
                }
            }
        }
        return out;
    }

    private static String summary(JepsenProfile profile, JepsenCluster.Outcome outcome, HistoryChecker.Result result) {
        Map<String, Long> f = result.figures();
        StringBuilder s = new StringBuilder();
        s.append("Jepsen-style suite, profile ")
                .append(profile.name())
                .append(" (seed ")
                .append(profile.seed())
                .append(")\n");
        s.append(String.format(
                "  processes: %d workers + %d operator, %d launched (%d kills, %d restarts); clocks skewed ±%d ms (pairs up to %d ms apart)%n",
                profile.workers(),
                profile.operators(),
                outcome.launched(),
                outcome.kills(),
                outcome.restarts(),
                profile.maxSkewMs(),
                2 * profile.maxSkewMs()));
        s.append(String.format(
                "  rounds: %d occurrences x %d ledger ids at most, %d occurrences run, %d succeeded; duration %.1f s%n",
                profile.rounds(),
                JepsenJobs.JOBS.size(),
                f.get("occurrences.claimed"),
                f.get("occurrences.succeeded"),
                outcome.elapsed().toMillis() / 1000.0));
        s.append(String.format(
                "  group %s of capacity %d (decision 0051): at most %s of its jobs ran at once%n",
                JepsenJobs.WIDE,
                JepsenJobs.WIDE_CAPACITY,
                f.getOrDefault("group." + JepsenJobs.WIDE + ".mostAtOnce", 0L)));
        s.append(String.format(
                "  operations: %d (claims %d, leases granted %d of which %d retries of a failed or abandoned attempt,"
                        + " completions %d: %d successes, %d fenced, %d unknown;"
                        + " domain writes %d landed, %d refused by the fence; late writes %d landed, %d refused;"
                        + " payloads %d, %d bad ones refused; maintenance on %d / off %d, %d holds; kills %d)%n",
                f.get("operations"),
                f.get("op.CLAIM"),
                f.get("claims.granted"),
                f.get("claims.retries"),
                f.get("op.COMPLETE"),
                f.get("successes"),
                f.get("completions.fenced"),
                f.get("completions.unknown"),
                f.get("domain.landed"),
                f.get("domain.refused"),
                f.get("domain.lateWritesLanded"),
                f.get("domain.lateWritesRefused"),
                f.get("op.PAYLOAD"),
                f.get("payloads.refused"),
                f.get("op.MAINT_ON"),
                f.get("op.MAINT_OFF"),
                f.get("maintenance.holds"),
                f.get("op.KILL")));
        s.append(String.format(
                "  command holds (HeldMaintenance): %d taken, %d left to lapse by a crashed command; renewals %d"
                        + " (%d acknowledged, %d of them extending a hold and %d shortening one, %d refused, %d unknown;"
                        + " %d cut a hold short); releases %d%n",
                f.get("maintenance.commandHolds"),
                f.get("maintenance.commandHoldsAbandoned"),
                f.get("op.MAINT_RENEW"),
                f.get("maintenance.renewalsAcknowledged"),
                f.get("maintenance.renewalsExtending"),
                f.get("maintenance.renewalsShortening"),
                f.get("maintenance.renewalsRefused"),
                f.get("maintenance.renewalsUnknown"),
                f.get("maintenance.renewalsCutting"),
                f.get("op.MAINT_RELEASE")));
        s.append(String.format(
                "  entity's own lease (tenant:acme): %d leases granted, %d claims refused under a hold on tenant;"
                        + " holds on tenant %d reported held, %d reported still waiting out entity runs;"
                        + " %d entity runs overlapping a hold%n",
                f.get("entity.leasesGranted"),
                f.get("entity.claimsUnderMaintenance"),
                f.get("entity.holdsReportedHeld"),
                f.get("entity.holdsStillDraining"),
                f.get("entity.runsOverlappingHolds")));
        s.append(String.format(
                "  operator's skips: %d planned, %d refused (started, behind the cursor, already skipped), %d removed"
                        + " by unskip; %d claims refused as skipped, %d skips met by a delivery%n",
                f.get("skips.planned"),
                f.get("skips.refused"),
                f.get("skips.removed"),
                f.get("claims.operatorSkipped"),
                f.get("skips.met")));
        s.append(String.format(
                "  operator's pauses: %d set (%d with until), %d refused as already paused; resumes %d catch-up,"
                        + " %d skip-paused, %d found nothing paused; %d claims refused as paused (%d of them by a span"
                        + " kept refused after its resume), %d SKIP PAUSED"
                        + " recorded; checks: %s%n",
                f.get("pauses.set"),
                f.get("pauses.lapsing"),
                f.get("pauses.alreadyPaused"),
                f.get("resumes.catchUp"),
                f.get("resumes.skipPaused"),
                f.get("resumes.notPaused"),
                f.get("claims.paused"),
                f.get("claims.pausedBySpan"),
                f.get("skips.pausedRecorded"),
                java.util.stream.Stream.of(
                                HistoryChecker.Check.PAUSE_IGNORED,
                                HistoryChecker.Check.PAUSE_UNFOUNDED,
                                HistoryChecker.Check.PAUSE_RAN,
                                HistoryChecker.Check.PAUSE_UNRECORDED)
                        .map(c -> c + " " + result.count(c))
                        .collect(Collectors.joining(", "))));
        s.append(String.format(
                "  faults injected: %d (%s) into %d requests%n",
                f.get("faults.injected"),
                f.entrySet().stream()
                        .filter(e ->
                                e.getKey().startsWith("faults.") && !e.getKey().equals("faults.injected"))
                        .sorted(Map.Entry.comparingByKey())
                        .map(e -> e.getKey().substring("faults.".length()) + " " + e.getValue())
                        .collect(Collectors.joining(", ")),
                f.get("requests")));
        s.append(String.format(
                "  long job (close, %d chunks, group batch shared with tidy; %d rounds): %d leases extended,"
                        + " %d executions started on moto (%d starts answered AlreadyExists), %d listed in the end"
                        + " (%d RUNNING: moto closes none, the driver runs the steps beside it); chunks: %d successes recorded, %d failed attempts,"
                        + " %d found already succeeded, %d in flight when their process halted; side effects %d landed, %d refused by the fence;"
                        + " %d occurrences succeeded; kills %d before the start, %d before a chunk's record%n",
                JepsenJobs.CHUNKS.size(),
                Math.min(profile.rounds(), JepsenJobs.LONG_ROUNDS),
                f.get("long.extensions"),
                f.get("long.executionsStarted"),
                f.get("long.startsAlreadyExisting"),
                f.get("long.executionsListed"),
                f.get("long.executionsLeftRunning"),
                f.get("long.chunkSuccessesRecorded"),
                f.get("long.chunkFailuresRecorded"),
                f.get("long.chunksAlreadySucceeded"),
                f.get("long.chunkRecordsCutOff"),
                f.get("long.chunkEffectsLanded"),
                f.get("long.chunkEffectsRefused"),
                f.get("long.occurrencesSucceeded"),
                f.get("long.killsBeforeStart"),
                f.get("long.killsBeforeChunkRecord")));
        s.append(String.format(
                "  long checks: %s%n",
                java.util.stream.Stream.of(
                                HistoryChecker.Check.EXECUTION_TWICE,
                                HistoryChecker.Check.CHUNK_TWICE,
                                HistoryChecker.Check.CHUNK_EFFECT_STALE,
                                HistoryChecker.Check.LONG_INCOMPLETE)
                        .map(c -> c + " " + result.count(c))
                        .collect(Collectors.joining(", "))));
        s.append("  anomalies: ").append(result.anomalies().size()).append('\n');
        result.anomalies().forEach(a -> s.append("    ").append(a).append('\n'));
        outcome.failures()
                .forEach(x -> s.append("  process failure: ").append(x).append('\n'));
        return s.toString();
    }
}
