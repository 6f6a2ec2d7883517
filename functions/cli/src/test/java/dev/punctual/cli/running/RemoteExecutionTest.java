package dev.punctual.cli.running;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static dev.punctual.fixtures.FixtureCatalog.POOL;
import static dev.punctual.fixtures.FixtureCatalog.QUARTER_HOURLY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.handler.LambdaInvokeStandIn;
import dev.punctual.testing.DynamoDbHarness;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code run}, {@code replay} and {@code invoke} against a deployed stage: found through CloudFormation
 * (moto), run in the stage's function through Lambda Invoke (the loopback stand-in running the real
 * handler), recorded in the stage's ledger (moto's DynamoDB).
 */
class RemoteExecutionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    record Result(int exitCode, String out, String err) {
        JsonNode json() throws Exception {
            return JSON.readTree(out);
        }
    }

    private static Result cli(DeployedStageFixture stage, InputStream stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] json = java.util.stream.Stream.concat(
                        java.util.Arrays.stream(args), java.util.stream.Stream.of("-o", "json"))
                .toArray(String[]::new);
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), stage.context(NOW, stdin), json);
        return new Result(code, out.toString(), err.toString());
    }

    private static Result cli(DeployedStageFixture stage, String... args) {
        return cli(stage, InputStream.nullInputStream(), args);
    }

    @Test
    void run_onADeployedStage_invokesTheJobsPoolAlias_andPrintsTheFunctionsResult() throws Exception {
        try (DeployedStageFixture stage = DeployedStageFixture.deploy(NOW, Duration.ofMinutes(1))) {
            Result run = cli(stage, "run", DAILY, "--stage", stage.stage());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.json().at("/stage").asText()).isEqualTo(stage.stage());
            assertThat(run.json().at("/occurrences/0/outcome").asText()).isEqualTo("PASS");
            List<LambdaInvokeStandIn.Invocation> invocations = stage.lambda().invocations();
            assertThat(invocations).hasSize(1);
            assertThat(invocations.get(0).function()).isEqualTo(stage.aliases().get("default"));
            assertThat(invocations.get(0).invocationType()).isEqualTo("RequestResponse");
            assertThat(JSON.readTree(invocations.get(0).payload()))
                    .isEqualTo(JSON.readTree("{\"kind\":\"run\",\"job\":\"" + DAILY + "\",\"force\":false}"));

            Result again = cli(stage, "run", DAILY, "--stage", stage.stage(), "--output", "table");
            assertThat(again.out()).contains("SKIP", "ALREADY_DONE");
        }
    }

    @Test
    void run_withLocal_runsInThisJvm_onTheStagesLedger_withoutInvokingTheFunction() throws Exception {
        try (DeployedStageFixture stage = DeployedStageFixture.deploy(NOW, Duration.ofMinutes(1))) {
            Result local = cli(stage, "run", DAILY, "--local", "--stage", stage.stage());
            Result remote = cli(stage, "run", DAILY, "--stage", stage.stage());

            assertThat(local.exitCode()).as(local.err()).isZero();
            assertThat(local.json().at("/occurrences/0/outcome").asText()).isEqualTo("PASS");
            assertThat(stage.lambda().invocations()).hasSize(1);
            assertThat(remote.json().at("/occurrences/0/reason").asText())
                    .as("the function sees the local run in the same ledger")
                    .isEqualTo("ALREADY_DONE");
        }
    }

    @Test
    void run_aMaintenancePoolJob_goesToThatPoolsAlias() {
        try (DeployedStageFixture stage = DeployedStageFixture.deploy(NOW, Duration.ofMinutes(1))) {
            Result run = cli(stage, "run", DESTRUCTIVE, "--stage", stage.stage());

            assertThat(run.out()).contains("DESTRUCTIVE_DISABLED");
            assertThat(stage.lambda().invocations().get(0).function())
                    .isEqualTo(stage.aliases().get(POOL));
        }
    }

    @Test
    void run_anUnknownJob_exitsTwo_withTheClosestJobId_beforeInvokingAnything() {
        try (DeployedStageFixture stage = DeployedStageFixture.deploy(NOW, Duration.ofMinutes(1))) {
            Result run = cli(stage, "run", "nightly-sumary", "--stage", stage.stage());

            assertThat(run.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
            assertThat(run.err()).contains("'nightly-sumary' is not a job", "did you mean " + DAILY + "?");
            assertThat(stage.lambda().invocations()).isEmpty();
        }
    }

    @Test
    void invoke_eventFromStdin_runsThatPayloadInTheFunction() throws Exception {
        try (DeployedStageFixture stage = DeployedStageFixture.deploy(NOW, Duration.ofMinutes(1))) {
            String payload = "{\"kind\":\"replay\",\"job\":\"" + QUARTER_HOURLY
                    + "\",\"from\":\"2026-11-30T00:00:00Z\"," + "\"to\":\"2026-11-30T01:00:00Z\",\"dry_run\":true}";

            Result result = cli(
                    stage,
                    new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)),
                    "invoke",
                    "--event",
                    "-",
                    "--stage",
                    stage.stage());

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.json().at("/counts/skip").asInt()).isEqualTo(4);
            assertThat(stage.lambda().invocations())
                    .singleElement()
                    .satisfies(i -> assertThat(i.payload()).isEqualTo(payload));
        }
    }

    @Test
    void replay_longerThanOneInvocationsBudget_isSplitIntoInvocations_withProgressOnStderr() throws Exception {
        // The function's clock moves 1 s each time it is read and the function has 20 s: each invocation
        // starts only the occurrences its deadline allows and hands the rest back as DEADLINE.
        try (DeployedStageFixture stage =
                DeployedStageFixture.deploy(stepping(NOW.instant()), Duration.ofSeconds(20))) {
            Result replay = cli(
                    stage,
                    "replay",
                    QUARTER_HOURLY,
                    "--from",
                    "2026-11-30T00:00:00Z",
                    "--to",
                    "2026-11-30T03:00:00Z",
                    "--stage",
                    stage.stage());

            assertThat(replay.exitCode()).as(replay.err()).isZero();
            int invocations = stage.lambda().invocations().size();
            assertThat(invocations).isGreaterThan(1);
            assertThat(replay.json().at("/counts/pass").asInt()).isEqualTo(12);
            assertThat(replay.json().at("/occurrences").size()).isEqualTo(12);
            assertThat(replay.json().at("/occurrences/11/occurrence").asText()).isEqualTo("2026-11-30T02:45:00Z");
            assertThat(replay.err().lines().toList())
                    .hasSize(invocations)
                    .allMatch(line -> line.matches("replay " + QUARTER_HOURLY + ": \\d+/12 \\(invocation \\d+\\)"))
                    .last()
                    .isEqualTo("replay " + QUARTER_HOURLY + ": 12/12 (invocation " + invocations + ")");
        }
    }

    @Test
    void run_whenTheFunctionThrows_exitsOne_namingTheAliasAndTheError() throws Exception {
        try (DeployedStageFixture stage = DeployedStageFixture.deploy(NOW, Duration.ofMinutes(1))) {
            DynamoDbHarness.client().deleteTable(b -> b.tableName(stage.ledgerTable()));

            Result run = cli(stage, "run", DAILY, "--stage", stage.stage());

            assertThat(run.exitCode()).isEqualTo(PunctualCli.FAILURE);
            assertThat(run.err())
                    .contains("run: failed: the function " + stage.aliases().get("default") + " threw")
                    .contains("PunctualException: update " + DAILY + " was rejected by DynamoDB")
                    .doesNotContain("dev.punctual.");
            assertThat(run.json().at("/error/problem").asText()).startsWith("failed: the function ");
        }
    }

    /** A clock that moves one second forward each time it is read. */
    static Clock stepping(Instant start) {
        AtomicLong reads = new AtomicLong();
        return new Clock() {
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
                return start.plusSeconds(reads.getAndIncrement());
            }
        };
    }
}
