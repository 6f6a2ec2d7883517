package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.control.CancelCommand;
import dev.punctual.cli.reading.JobsCommand;
import dev.punctual.cli.reading.PlanCommand;
import dev.punctual.cli.reading.StatusCommand;
import dev.punctual.cli.running.InvocationCommands;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.handler.Wiring;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.LongJob;
import dev.punctual.job.LongRun;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.longrun.stepfunctions.EmulatorStateMachines;
import dev.punctual.longrun.stepfunctions.StepFunctionsExecutions;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * The operator commands of long jobs (decision 0039) on the emulator: {@code run} carries a long occurrence
 * out end to end, {@code status} shows its execution and chunks, {@code cancel} stops a running one and
 * records it cancelled, {@code jobs} and {@code plan} mark a long job with its limits.
 */
public class LongJobCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static final String LONG = "close-books";
    private static final String SHORT = "send-digest";

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);
    private static final Instant TODAY = Instant.parse("2026-11-30T02:00:00Z");
    private static final Instant YESTERDAY = Instant.parse("2026-11-29T02:00:00Z");

    /** A long job of three chunks, and a short one. */
    public static final JobCatalog CATALOG = JobCatalog.of(
            JobDefinition.builder(LONG)
                    .schedule("0 2 * * *", "UTC")
                    .runsLong(LongRun.within(Duration.ofHours(1)).chunksAtOnce(2))
                    .job(services -> new Close())
                    .build(),
            JobDefinition.builder(SHORT)
                    .schedule("0 2 * * *", "UTC")
                    .job(services -> context -> JobResult.empty())
                    .build());

    static final class Close implements LongJob {
        @Override
        public List<String> plan(JobContext context) {
            return List.of("acme", "globex", "initech");
        }

        @Override
        public JobResult chunk(JobContext context, String key) {
            return JobResult.of("tenant", key);
        }
    }

    private String ledgerTable;

    /** A stage of its own per test: moto keeps every execution's name, as Step Functions does for 90 days. */
    private String stage;

    @BeforeEach
    void freshStage() {
        ledgerTable = TestTables.uniqueName(LongJobCommandsTest.class, "ledger");
        stage = "t" + UUID.randomUUID().toString().substring(0, 6);
    }

    @Test
    void run_ofALongJob_endsSucceeded_andStatusShowsItsExecution_andThreeOfThreeChunks() throws Exception {
        CliRun run = cli("run", LONG, "--at", TODAY.toString());
        assertThat(run.code()).as(run.err()).isZero();

        CliRun status = cli("status", LONG);
        assertThat(status.code()).as(status.err()).isZero();
        JsonNode row = JSON.readTree(status.out()).path("jobs").get(0);
        assertThat(row.path("last").path("status").asText()).isEqualTo("SUCCEEDED");
        JsonNode longRun = row.path("long");
        // The claim's fence, then a hash of its owner token (decision 0039: two ledgers' claims never share a name).
        assertThat(longRun.path("execution").asText()).matches(stage + "-close-books-20261130T0200Z-f1-[0-9a-f]{6}");
        assertThat(longRun.path("arn").asText())
                .endsWith(":execution:punctual-" + stage + "-close-books:"
                        + longRun.path("execution").asText());
        assertThat(longRun.path("chunks").path("done").asInt()).isEqualTo(3);
        assertThat(longRun.path("chunks").path("failed").asInt()).isZero();
        assertThat(longRun.path("chunks").path("planned").asInt()).isEqualTo(3);
        assertThat(longRun.path("lease_until").isNull())
                .as("a finished occurrence holds no lease")
                .isTrue();

        CliRun table = cli("status", LONG, "--output", "table");
        assertThat(table.out())
                .contains("execution " + stage + "-close-books-20261130T0200Z-f1", "chunks 3/3 done, 0 failed");
    }

    @Test
    void status_showsARunningLongOccurrenceOlderThanTheLastDue_notTheLastOne() throws Exception {
        CliRun today = cli("run", LONG, "--at", TODAY.toString());
        assertThat(today.code()).as(today.err()).isZero();
        startWithoutDriving(YESTERDAY);

        CliRun status = cli("status", LONG);

        JsonNode row = JSON.readTree(status.out()).path("jobs").get(0);
        assertThat(row.path("last").path("occurrence").asText()).isEqualTo(TODAY.toString());
        assertThat(row.path("long").path("occurrence").asText()).isEqualTo(YESTERDAY.toString());
        assertThat(row.path("long").path("lease_until").asText()).isNotEmpty();
    }

    @Test
    void cancel_ofARunningLongOccurrence_recordsItCancelled_releasesTheGroup_andASecondCancelHasNothingToCancel()
            throws Exception {
        startWithoutDriving(TODAY);
        assertThat(ledger().run(new RunKey(LONG, TODAY)).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        CliRun running = cli("status", LONG);
        JsonNode shown = JSON.readTree(running.out()).path("jobs").get(0).path("long");
        assertThat(shown.path("chunks").path("planned").isNull())
                .as("not planned yet")
                .isTrue();
        assertThat(shown.path("lease_until").asText())
                .as("the claim's lease, while it runs")
                .isNotEmpty();

        CliRun cancel =
                cli("cancel", LONG, "--at", TODAY.toString(), "--reason", "wrong FX rates loaded", "--by", "alice");

        assertThat(cancel.code()).as(cancel.err()).isZero();
        JsonNode out = JSON.readTree(cancel.out());
        assertThat(out.path("cancelled").asBoolean()).isTrue();
        assertThat(out.path("reason").asText()).isEqualTo("CANCELLED");
        assertThat(out.path("stopped").asBoolean()).isTrue();
        assertThat(out.path("execution").asText()).matches(stage + "-close-books-20261130T0200Z-f1-[0-9a-f]{6}");
        RunRecord recorded = ledger().run(new RunKey(LONG, TODAY)).orElseThrow();
        assertThat(recorded.status()).isEqualTo(RunStatus.FAILED);
        assertThat(recorded.errorSummary()).contains("CANCELLED by alice: wrong FX rates loaded");
        assertThat(ledger().lock(LONG).leaseHeldAt(NOW.instant()))
                .as("the group is released")
                .isFalse();

        CliRun again = cli("cancel", LONG, "--at", TODAY.toString(), "--reason", "again", "--by", "alice");
        assertThat(again.code()).as(again.out() + again.err()).isEqualTo(PunctualCli.RAN_NOTHING);
        assertThat(JSON.readTree(again.out()).path("detail").asText()).startsWith("nothing to cancel: it is FAILED");
        assertThat(cli("run", LONG, "--at", YESTERDAY.toString()).code())
                .as("the group is free for the next occurrence")
                .isZero();
    }

    @Test
    void cancel_storesTheReasonRedacted_andRefusesABy_thatReadsAsPersonalData() throws Exception {
        startWithoutDriving(TODAY);

        CliRun byMail = cli("cancel", LONG, "--at", TODAY.toString(), "--reason", "stop", "--by", "alice@example.com");
        assertThat(byMail.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(ledger().run(new RunKey(LONG, TODAY)).orElseThrow().status())
                .as("nothing cancelled by a refused command")
                .isEqualTo(RunStatus.RUNNING);

        CliRun cancel = cli(
                "cancel",
                LONG,
                "--at",
                TODAY.toString(),
                "--reason",
                "rotated password=hunter2 mid-run",
                "--by",
                "alice");
        assertThat(cancel.code()).as(cancel.err()).isZero();
        assertThat(cancel.out()).doesNotContain("hunter2");
        assertThat(ledger().run(new RunKey(LONG, TODAY)).orElseThrow().errorSummary())
                .startsWith("CANCELLED by alice: rotated")
                .doesNotContain("hunter2");
    }

    @Test
    void cancel_refusesAJobThatIsNotLong_aTimeThatIsNoOccurrence_andNoReason_beforeAnyRequest() {
        CliRun notLong = cli("cancel", SHORT, "--at", TODAY.toString(), "--reason", "stop");
        CliRun notAnOccurrence = cli("cancel", LONG, "--at", "2026-11-30T02:30:00Z", "--reason", "stop");
        CliRun noReason = cli("cancel", LONG, "--at", TODAY.toString());
        CliRun blankReason = cli("cancel", LONG, "--at", TODAY.toString(), "--reason", " ");

        assertThat(List.of(notLong, notAnOccurrence, noReason, blankReason))
                .allMatch(r -> r.code() == PunctualCli.INVALID_INPUT);
        assertThat(notLong.err()).contains("does not run long");
        assertThat(notAnOccurrence.err()).contains("is not an occurrence");
        assertThat(noReason.err()).contains("--reason");
        assertThat(DynamoDbHarness.client().listTables().tableNames())
                .as("nothing connected: the emulator's ledger was never created")
                .doesNotContain(ledgerTable);
    }

    @Test
    void jobsAndPlan_markALongJob_withItsLimits() throws Exception {
        JsonNode jobs = JSON.readTree(cli("jobs").out()).path("jobs");
        JsonNode close = jobs.get(0);
        assertThat(close.path("job").asText()).isEqualTo(LONG);
        assertThat(close.path("long").path("max_duration").asText()).isEqualTo("PT1H");
        assertThat(close.path("long").path("chunks_at_once").asInt()).isEqualTo(2);
        assertThat(close.path("flags").toString()).contains("long");
        assertThat(jobs.get(1).path("long").isNull()).isTrue();
        assertThat(cli("jobs", "--output", "wide").out()).contains("LONG", "within PT1H, 2 chunks at once");

        JsonNode plan = JSON.readTree(cli("plan", "--job", LONG, "--count", "2").out());
        assertThat(plan.path("long").path("max_duration").asText()).isEqualTo("PT1H");
        assertThat(plan.path("long").path("chunks_at_once").asInt()).isEqualTo(2);
        assertThat(JSON.readTree(cli("plan", "--job", SHORT, "--count", "2").out())
                        .path("long")
                        .isNull())
                .isTrue();
        assertThat(cli("plan", "--job", LONG, "--count", "2", "--output", "table")
                        .out())
                .contains("long        within PT1H, 2 chunks at once");
    }

    /**
     * A long occurrence left RUNNING, as on AWS between its start and its steps: claimed and started by a
     * runtime on the same emulator whose executions nothing drives (moto keeps them RUNNING).
     */
    private void startWithoutDriving(Instant occurrence) throws Exception {
        Region region = OperatorSession.emulatorRegion(CliContext.withClock(NOW), null);
        URI endpoint = DynamoDbHarness.backend().endpoint();
        LedgerTable.createIfMissing(DynamoDbHarness.client(), ledgerTable);
        EmulatorStateMachines.createIfMissing(endpoint, region, stage, CATALOG);
        Map<String, String> env = new HashMap<>(StageFlags.defaultsFor(stage).toEnvironment());
        env.putAll(new StageResources(ledgerTable, "punctual-" + stage, "test").toEnvironment());
        env.put("AWS_REGION", region.id());
        env.put(Wiring.ENDPOINT, endpoint.toString());
        env.put(StepFunctionsExecutions.PREFIX_ENV, EmulatorStateMachines.prefix(region, stage));
        Wiring.Clients clients = Wiring.clients(
                env, StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-local", "punctual-local")));
        PunctualRuntime runtime = Wiring.runtime(env, clients, CATALOG, NOW, d -> {}, line -> {}, false);
        String payload = "{\"kind\":\"run\",\"job\":\"" + LONG + "\",\"at\":\"" + occurrence + "\"}";
        runtime.handle(
                payload, Deadline.fromRemaining(NOW.instant(), Duration.ofMinutes(5)), Wiring.log(line -> {}, NOW));
    }

    private RunLedger ledger() {
        return DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                ledgerTable,
                NOW,
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {});
    }

    /** The CLI with this test's catalog in every long-job command, on the emulator, JSON unless told. */
    private CliRun cli(String... args) {
        CliContext context = CliContext.withClock(NOW);
        List<String> all = new ArrayList<>(List.of(args));
        boolean offline = args[0].equals("jobs") || args[0].equals("plan");
        if (!offline) {
            all.addAll(List.of(
                    "--endpoint",
                    DynamoDbHarness.backend().endpoint().toString(),
                    "--ledger-table",
                    ledgerTable,
                    "--stage",
                    stage));
        }
        if (!all.contains("--output")) {
            all.addAll(List.of("--output", "json"));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                context,
                commands -> {
                    commands.put(
                            "run",
                            () -> new InvocationCommands.Run(context, ignored -> CATALOG).runningInProcess(CATALOG));
                    commands.put("status", () -> new StatusCommand(context, ignored -> CATALOG));
                    commands.put("cancel", () -> new CancelCommand(context, ignored -> CATALOG, CATALOG));
                    commands.put("jobs", () -> new JobsCommand(NOW, () -> CATALOG));
                    commands.put("plan", () -> new PlanCommand(NOW, () -> CATALOG));
                    return commands;
                },
                all.toArray(String[]::new));
        return new CliRun(code, out.toString(), err.toString());
    }
}
