package dev.punctual.cli.reading;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static dev.punctual.fixtures.FixtureCatalog.POOL;
import static dev.punctual.fixtures.FixtureCatalog.RECORDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.demo.SimulatedClock;
import dev.punctual.ledger.Sleeper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code logs} against a deployed stage: the saved queries as docs/queries.md shows them (the same text
 * the CDK app deploys, SavedQueriesTest), the outcome lines the real handler wrote in the stage's
 * functions, and the Logs API spoken over loopback ({@link LogsInsightsStandIn}).
 */
class LogsCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    private static DeployedStageFixture stage;
    private static LogsInsightsStandIn logs;

    private record Result(int code, String out, String err) {
        JsonNode json() throws IOException {
            return JSON.readTree(out);
        }
    }

    @BeforeAll
    static void deployAndRun() throws IOException {
        stage = DeployedStageFixture.deploy(NOW, Duration.ofMinutes(1));
        logs = LogsInsightsStandIn.start();
        cli("run", DAILY, "--stage", stage.stage());
        cli("run", DESTRUCTIVE, "--stage", stage.stage());
        stage.aliases()
                .forEach((pool, alias) -> logs.putLines(
                        "/aws/lambda/punctual-" + stage.stage() + "-" + pool,
                        stage.lambda().logLines(alias)));
        LogsInsightsStandIn.documentedQueries()
                .forEach((name, text) -> logs.saveQuery("punctual/" + stage.stage() + "/" + name, text, List.of()));
    }

    @AfterAll
    static void stop() {
        logs.close();
        stage.close();
    }

    private static Result cli(String... args) {
        return cli(
                NOW,
                duration -> {
                    throw new AssertionError("logs waited " + duration + " for a query the stand-in answered at once");
                },
                args);
    }

    private static Result cli(Clock clock, Sleeper sleeper, String... args) {
        Map<String, java.net.URI> endpoints = new HashMap<>(stage.aws().endpoints());
        endpoints.put(AwsAccess.LOGS, logs.endpoint());
        AwsAccess aws = new AwsAccess(stage.aws().env(), stage.aws().credentials(), endpoints);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                new CliContext(clock, aws, java.io.InputStream.nullInputStream(), sleeper),
                args);
        return new Result(code, out.toString(), err.toString());
    }

    /** A sleeper that moves the clock by what it is asked to wait and remembers each wait. */
    private record MovingClock(SimulatedClock clock, List<Duration> waits) implements Sleeper {
        MovingClock() {
            this(new SimulatedClock(NOW.instant()), new java.util.concurrent.CopyOnWriteArrayList<>());
        }

        @Override
        public void sleep(Duration duration) {
            waits.add(duration);
            clock.advance(duration);
        }

        Duration waited() {
            return waits.stream().reduce(Duration.ZERO, Duration::plus);
        }
    }

    @Test
    void logs_forAJob_runsTheSavedTimeline_narrowedToIt_overTheStagesLogGroups_sinceTheGivenTime() throws IOException {
        Result result = cli("logs", DAILY, "--since", "2h", "--stage", stage.stage(), "-o", "json");

        assertThat(result.code()).as(result.err()).isZero();
        JsonNode rows = result.json().path("rows");
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).path("occurrence").asText()).isEqualTo("2026-11-30T14:00:00Z");
        assertThat(rows.get(0).path("outcome").asText()).isEqualTo("PASS");
        assertThat(rows.get(0).path("trigger").asText()).isEqualTo("MANUAL");
        LogsInsightsStandIn.Started query = logs.started().get(logs.started().size() - 1);
        assertThat(query.queryString())
                .startsWith(LogsInsightsStandIn.documentedFirstLine("job-timeline"))
                .contains("| filter job = \"" + DAILY + "\"")
                .doesNotContain("and job = ");
        assertThat(query.logGroupNames())
                .containsExactlyInAnyOrder(
                        "/aws/lambda/punctual-" + stage.stage() + "-default",
                        "/aws/lambda/punctual-" + stage.stage() + "-" + POOL);
        assertThat(query.endTime() - query.startTime()).isEqualTo(7200);
    }

    @Test
    void logs_follow_printsEachNewRowOnce_everyInterval_untilStopped() throws IOException {
        String group = "/aws/lambda/punctual-" + stage.stage() + "-default";
        String outcomeLine = stage.aliases().values().stream()
                .flatMap(alias -> stage.lambda().logLines(alias).stream())
                .filter(line -> line.contains("\"occurrence outcome\"") && line.contains("\"" + DAILY + "\""))
                .findFirst()
                .orElseThrow();
        ObjectNode later = (ObjectNode) JSON.readTree(outcomeLine);
        later.put("occurrence", "2026-11-30T14:00:01Z");
        SimulatedClock clock = new SimulatedClock(NOW.instant());
        List<Duration> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
        Sleeper newLineThenCtrlC = duration -> {
            if (waits.size() == 2) {
                throw new InterruptedException("Ctrl-C");
            }
            waits.add(duration);
            clock.advance(duration);
            if (waits.size() == 1) {
                logs.putLines(group, List.of(later.toString())); // a new outcome line, between two runs
            }
        };

        Result result;
        try {
            result = cli(
                    clock,
                    newLineThenCtrlC,
                    "logs",
                    DAILY,
                    "--follow",
                    "--every",
                    "5s",
                    "--stage",
                    stage.stage(),
                    "-o",
                    "json");
        } finally {
            logs.removeLines(group, List.of(later.toString()));
        }
        assertThat(Thread.interrupted())
                .as("the command kept the interrupt it stopped on")
                .isTrue();

        assertThat(result.code()).as(result.err()).isZero();
        List<JsonNode> batches = result.out()
                .lines()
                .map(line -> {
                    try {
                        return JSON.readTree(line);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                })
                .toList();
        assertThat(batches)
                .as("the first run, then the run that found a new row; the third found none")
                .hasSize(2);
        assertThat(batches.get(0).path("rows").findValuesAsText("occurrence")).containsExactly("2026-11-30T14:00:00Z");
        assertThat(batches.get(1).path("rows").findValuesAsText("occurrence")).containsExactly("2026-11-30T14:00:01Z");
        assertThat(waits).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Test
    void logs_everyWithoutFollow_orFasterThanFiveSeconds_isRefused() {
        assertThat(cli("logs", "--every", "10s", "--stage", stage.stage()).err())
                .contains("--every: only with --follow");
        assertThat(cli("logs", "--follow", "--every", "1s", "--stage", stage.stage())
                        .err())
                .contains("--every: '1s' is out of range; accepted: 5s to 1h");
    }

    @Test
    void logs_byOutcome_acrossJobs_printsATableWithTheQuerysFieldNames() {
        Result result = cli("logs", "--outcome", "SKIP", "--stage", stage.stage());

        assertThat(result.code()).as(result.err()).isZero();
        String[] lines = result.out().strip().split("\n");
        assertThat(lines[0]).contains("OCCURRENCE", "OUTCOME", "REASON", "DURATION_MS");
        assertThat(lines).hasSize(2);
        assertThat(lines[1]).contains("SKIP", "DESTRUCTIVE_DISABLED");
    }

    @Test
    void logs_anUnknownQuery_exitsTwo_namingTheSavedOnes() {
        Result result = cli("logs", "--query", "failure", "--stage", stage.stage());

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("--query: 'failure' is not a saved query", "did you mean failures?");
    }

    @Test
    void logs_aTableOption_isNotAnOptionOfLogs_exitsTwo_andStartsNoQuery() {
        int started = logs.started().size();

        Result ledger = cli("logs", "--stage", stage.stage(), "--ledger-table", "other-ledger");
        Result domain = cli("logs", "--stage", stage.stage(), "--job-table=" + RECORDS.name() + "=other-records");

        assertThat(ledger.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(ledger.err().strip())
                .startsWith("punctual logs: --ledger-table: not an option of this command; accepted: see punctual"
                        + " logs --help");
        assertThat(domain.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(domain.err())
                .contains("punctual logs: --job-table=" + RECORDS.name()
                        + "=other-records: not an option of this command");
        assertThat(ledger.out() + domain.out()).isEmpty();
        assertThat(logs.started()).hasSize(started);
    }

    @Test
    void logs_aQueryStillRunning_isPolledEveryHalfSecondOnTheClock_untilComplete() throws IOException {
        MovingClock time = new MovingClock();
        logs.answerRunning(3);
        try {
            Result result = cli(time.clock(), time, "logs", DAILY, "--stage", stage.stage(), "-o", "json");

            assertThat(result.code()).as(result.err()).isZero();
            assertThat(result.json().path("rows")).hasSize(1);
            assertThat(time.waits())
                    .containsExactly(Duration.ofMillis(500), Duration.ofMillis(500), Duration.ofMillis(500));
        } finally {
            logs.answerRunning(0);
        }
    }

    @Test
    void logs_aQueryRunningLongerThanTheWait_failsSayingSo_afterWaitingItOnTheClock() {
        MovingClock time = new MovingClock();
        logs.answerRunning(Integer.MAX_VALUE);
        try {
            Result result = cli(time.clock(), time, "logs", "--stage", stage.stage());

            assertThat(result.code()).isEqualTo(PunctualCli.FAILURE);
            assertThat(result.err())
                    .contains(
                            "punctual logs: failed:", "was still Running after " + LogsCommand.WAIT.toSeconds() + "s");
            assertThat(result.out()).isEmpty();
            assertThat(time.waited())
                    .isGreaterThan(LogsCommand.WAIT)
                    .isLessThanOrEqualTo(LogsCommand.WAIT.plusSeconds(1));
        } finally {
            logs.answerRunning(0);
        }
    }
}
