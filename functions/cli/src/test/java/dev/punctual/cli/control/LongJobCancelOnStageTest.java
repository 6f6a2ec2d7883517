package dev.punctual.cli.control;

import static dev.punctual.cli.LongJobCommandsTest.CATALOG;
import static dev.punctual.cli.LongJobCommandsTest.LONG;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.CliRun;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.RecordingProxy;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.handler.Wiring;
import dev.punctual.infra.SynthesisedOperatorPolicy;
import dev.punctual.json.Json;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.longrun.stepfunctions.EmulatorStateMachines;
import dev.punctual.longrun.stepfunctions.StepFunctionsExecutions;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageOutputs;
import dev.punctual.stage.StageResources;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * {@code cancel} against a deployed stage (a stack in moto, Step Functions and DynamoDB at moto through a
 * {@link RecordingProxy}): it stops the execution with the operator's own requests, all of them reads but the
 * stop, and the occurrence is recorded by the stage's function from the stopped execution's status event,
 * played here by the sleeper cancel waits with (the stage's rule would deliver it).
 */
class LongJobCancelOnStageTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Region REGION = DynamoDbHarness.REGION;
    private static final Instant TODAY = Instant.parse("2026-11-30T02:00:00Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-30T14:00:02Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    private String stage;
    private String ledgerTable;
    private RecordingProxy proxy;
    private PunctualRuntime function;

    @BeforeEach
    void deployedStage() {
        stage = "s" + UUID.randomUUID().toString().substring(0, 6);
        ledgerTable = TestTables.uniqueName(LongJobCancelOnStageTest.class, "ledger");
        proxy = new RecordingProxy(DynamoDbHarness.backend().endpoint());
        URI moto = DynamoDbHarness.backend().endpoint();
        LedgerTable.createIfMissing(DynamoDbHarness.client(), ledgerTable);
        EmulatorStateMachines.createIfMissing(moto, REGION, stage, CATALOG);
        Map<String, String> outputs = new LinkedHashMap<>();
        outputs.put(StageOutputs.STAGE_NAME, stage);
        outputs.put(StageOutputs.LEDGER_TABLE, ledgerTable);
        outputs.put(StageOutputs.SCHEDULE_GROUP, "punctual-" + stage);
        DeployedStageFixture.createStack(access(moto), stage, outputs);
        // The stage's function: its long jobs' executions on Step Functions (moto), nothing driving them.
        Map<String, String> env = new HashMap<>(StageFlags.defaultsFor(stage).toEnvironment());
        env.putAll(new StageResources(ledgerTable, "punctual-" + stage, "default").toEnvironment());
        env.put("AWS_REGION", REGION.id());
        env.put(Wiring.ENDPOINT, moto.toString());
        env.put(StepFunctionsExecutions.PREFIX_ENV, EmulatorStateMachines.prefix(REGION, stage));
        function = Wiring.runtime(
                env,
                Wiring.clients(
                        env,
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create("punctual-local", "punctual-local"))),
                CATALOG,
                clock,
                d -> {},
                line -> {},
                false);
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
    }

    @Test
    void cancel_onAStage_stopsTheExecution_andTheFunctionRecordsItFromTheStatusEvent_withTheOperatorsReadsOnly()
            throws Exception {
        function.handle(
                "{\"kind\":\"run\",\"job\":\"" + LONG + "\",\"at\":\"" + TODAY + "\"}",
                Deadline.fromRemaining(clock.instant(), Duration.ofMinutes(5)),
                Wiring.log(line -> {}, clock));
        assertThat(run().status()).isEqualTo(RunStatus.RUNNING);
        proxy.take();

        CliRun cancel = cli(this::deliverTheStatusEvent, "--reason", "wrong FX rates loaded", "--by", "alice");

        assertThat(cancel.code()).as(cancel.out() + cancel.err()).isZero();
        JsonNode out = JSON.readTree(cancel.out());
        assertThat(out.path("stopped").asBoolean()).isTrue();
        assertThat(out.path("reason").asText()).isEqualTo("CANCELLED");
        assertThat(out.path("status").asText()).isEqualTo("FAILED");
        assertThat(out.path("detail").asText()).isEqualTo("CANCELLED by alice: wrong FX rates loaded");
        // Recorded by the function from the event. Step Functions' event carries the stop's error and cause
        // (who and why); moto 5.2.5 keeps neither, so only the status is asserted here.
        assertThat(out.path("error").asText()).contains("ABORTED");
        assertThat(run().status()).isEqualTo(RunStatus.FAILED);
        assertThat(run().errorSummary()).contains(executionName() + " ABORTED");

        List<RecordingProxy.Access> sent = proxy.take();
        SynthesisedOperatorPolicy policy = SynthesisedOperatorPolicy.synthesise();
        assertThat(sent.stream().filter(a -> a.action().startsWith("dynamodb:")).toList())
                .as("the operator's ledger requests: reads only, each allowed by the operator policy")
                .isNotEmpty()
                .allMatch(a -> List.of("dynamodb:GetItem", "dynamodb:Query").contains(a.action()))
                .allMatch(a -> policy.allows(
                        a.action(),
                        a.partitionKey() == null ? "" : a.partitionKey(),
                        a.sortKey(),
                        a.attributes(),
                        a.returnValues()));
        assertThat(sent.stream()
                        .map(RecordingProxy.Access::action)
                        .filter(a -> a.startsWith("AWSStepFunctions:"))
                        .distinct()
                        .toList())
                .as("Step Functions: what OperatorPolicy.allowLongRuns grants")
                .containsExactlyInAnyOrder("AWSStepFunctions:DescribeExecution", "AWSStepFunctions:StopExecution");
    }

    @Test
    void cancel_onAStage_whoseFunctionHasNotRecordedItYet_saysSo_afterItsWait() throws Exception {
        function.handle(
                "{\"kind\":\"run\",\"job\":\"" + LONG + "\",\"at\":\"" + TODAY + "\"}",
                Deadline.fromRemaining(clock.instant(), Duration.ofMinutes(5)),
                Wiring.log(line -> {}, clock));

        CliRun cancel = cli(() -> {}, "--reason", "stop", "--by", "alice", "--output", "table");

        assertThat(cancel.code()).as(cancel.err()).isZero();
        assertThat(cancel.out()).contains("stopped", "records it when the status event arrives");
        assertThat(run().status()).as("the operator wrote nothing").isEqualTo(RunStatus.RUNNING);
    }

    /** What the stage's rule does after the stop: the execution's status change, to the pool's function. */
    private void deliverTheStatusEvent() {
        LongExecutions.Execution stopped =
                function.services().executions().describe(LONG, executionName()).orElseThrow();
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("status", stopped.status().name());
        detail.put("name", stopped.name());
        detail.put("input", stopped.input());
        detail.put("error", stopped.error().orElse(null));
        detail.put("cause", stopped.cause().orElse(null));
        function.step(
                Json.write(Map.of("detail-type", "Step Functions Execution Status Change", "detail", detail)),
                Deadline.fromRemaining(clock.instant(), Duration.ofMinutes(5)),
                Wiring.log(line -> {}, clock));
    }

    /** The execution the run noted: its claim's name (fence 1, then a hash of the claim's owner token). */
    private String executionName() {
        String name = DynamoDbRunLedger.create(
                        DynamoDbHarness.client(),
                        ledgerTable,
                        clock,
                        () -> UUID.randomUUID().toString(),
                        Retention.DEFAULT,
                        d -> {})
                .longRuns()
                .execution(new RunKey(LONG, TODAY))
                .orElseThrow()
                .name();
        assertThat(name).matches(stage + "-" + LONG + "-20261130T0200Z-f1-[0-9a-f]{6}");
        return name;
    }

    private RunRecord run() {
        return DynamoDbRunLedger.create(
                        DynamoDbHarness.client(),
                        ledgerTable,
                        clock,
                        () -> UUID.randomUUID().toString(),
                        Retention.DEFAULT,
                        d -> {})
                .run(new RunKey(LONG, TODAY))
                .orElseThrow();
    }

    private static AwsAccess access(URI endpoint) {
        return AwsAccess.loopback(
                REGION.id(),
                Map.of(
                        AwsAccess.CLOUDFORMATION, endpoint,
                        AwsAccess.DYNAMODB, endpoint,
                        AwsAccess.STATES, endpoint));
    }

    /** cancel on the stage; each wait first runs {@code onWait} (the stage's rule), then moves the clock. */
    private CliRun cli(Runnable onWait, String... options) {
        CliContext context = new CliContext(clock, access(proxy.endpoint()), InputStream.nullInputStream(), d -> {
            onWait.run();
            now.updateAndGet(t -> t.plus(d));
        });
        List<String> args = new java.util.ArrayList<>(
                List.of("cancel", LONG, "--at", TODAY.toString(), "--stage", stage, "--region", REGION.id()));
        args.addAll(List.of(options));
        if (!args.contains("--output")) {
            args.addAll(List.of("--output", "json"));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                context,
                commands -> {
                    commands.put("cancel", () -> new CancelCommand(context, ignored -> CATALOG, CATALOG));
                    return commands;
                },
                args.toArray(String[]::new));
        return new CliRun(code, out.toString(), err.toString());
    }
}
