package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DELIVERING;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static dev.punctual.fixtures.FixtureCatalog.QUARTER_HOURLY;
import static dev.punctual.fixtures.FixtureCatalog.RECORDS;
import static dev.punctual.fixtures.FixtureCatalog.SHARED_GROUP;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.output.RefusalLine;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.demo.SimulatedClock;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The operator commands against the emulator, as an operator types them. */
class OperatorCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    record Result(int exitCode, String out, String err) {
        JsonNode json() throws Exception {
            return JSON.readTree(out);
        }
    }

    private List<String> stage;

    @BeforeEach
    void freshStage() {
        stage = List.of(
                "--endpoint",
                DynamoDbHarness.backend().endpoint().toString(),
                "--ledger-table",
                TestTables.uniqueName(getClass(), "ledger"),
                "--job-table",
                RECORDS.name() + "=" + TestTables.uniqueName(getClass(), "records"),
                "--stage",
                "dev",
                "--output",
                "json");
    }

    /** The command, then the stage's options, then the test's own (so they override, e.g. --output table). */
    private Result cli(String... args) {
        return cli(CliContext.withClock(NOW), args);
    }

    private Result cli(CliContext context, String... args) {
        List<String> all = new ArrayList<>(List.of(args[0]));
        all.addAll(stage);
        all.addAll(List.of(args).subList(1, args.length));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), context, all.toArray(String[]::new));
        return new Result(code, out.toString(), err.toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"kind\":\"run\",\"job\":\"" + DAILY + "\",\"at\":\"2026-12-30T14:00:00Z\"}",
                "{\"kind\":\"run\",\"job\":\"nightly-sumary\"}",
                "{\"kind\":\"replay\",\"job\":\"" + DAILY
                        + "\",\"from\":\"2026-11-20T00:00:00Z\",\"to\":\"2026-11-29T00:00:00Z\",\"max\":04}"
            })
    void invoke_ofAPayloadTheHandlerRefuses_onAnEmulator_createsNoTable(String payload) throws Exception {
        Path event = Files.createTempFile("refused", ".json");
        Files.writeString(event, payload);

        Result result = cli("invoke", "--event", event.toString());

        assertThat(result.exitCode()).isNotZero();
        List<String> tables = DynamoDbHarness.client().listTables().tableNames();
        assertThat(tables)
                .as("tables after a refused payload")
                .doesNotContain(
                        stage.get(stage.indexOf("--ledger-table") + 1),
                        stage.get(stage.indexOf("--job-table") + 1)
                                .substring(RECORDS.name().length() + 1));
    }

    /** This machine's real clock moved by {@code offset}, compared with DynamoDB's (the emulator's) as the process's is. */
    private static CliContext realClockOff(Duration offset) {
        return CliContext.withClock(Clock.offset(Clock.systemUTC(), offset)).comparingClock();
    }

    @Test
    void run_fromAClockTwoMinutesAheadOfDynamoDbs_exitsTwoNamingTheClock_andRunsNothing() {
        Result result = cli(realClockOff(Duration.ofMinutes(2)), "run", QUARTER_HOURLY);

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .contains("clock: this machine's clock is at least", "s ahead of DynamoDB's", "skew tolerance of 2 s");
        assertThat(DynamoDbHarness.client().listTables().tableNames())
                .doesNotContain(stage.get(stage.indexOf("--ledger-table") + 1));
    }

    @Test
    void maintenanceOn_fromAClockTwoMinutesBehindDynamoDbs_exitsTwoNamingTheClock_andHoldsNothing() {
        Result result =
                cli(realClockOff(Duration.ofMinutes(-2)), "maintenance", "on", "--reason", "load", "--for", "10m");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("clock: this machine's clock is at least", "s behind DynamoDB's");
        assertThat(DynamoDbHarness.client().listTables().tableNames())
                .doesNotContain(stage.get(stage.indexOf("--ledger-table") + 1));
    }

    @Test
    void run_fromAClockInStepWithDynamoDbs_runs() {
        Result result = cli(realClockOff(Duration.ZERO), "run", QUARTER_HOURLY);

        assertThat(result.exitCode()).as(result.err()).isZero();
    }

    @ParameterizedTest(name = "{0} {1}")
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "--stage        | ''                 | is not a stage name",
                "--stage        | 'dev\u202E'        | dev\\u202E",
                "--stage        | 'Dev'              | is not a stage name",
                "--region       | 'not a region!'    | is not an AWS region",
                "--ledger-table | 'bad name!'        | is not a DynamoDB table name",
                "--job-table    | 'Records=x y'      | is not a DynamoDB table name",
            })
    void run_withANameAwsWouldRefuse_exitsTwoNamingTheOption_andCreatesNoTable(
            String option, String value, String expected) {
        String given = value.translateEscapes();

        Result result = cli("run", QUARTER_HOURLY, option, given);

        assertThat(result.exitCode()).as(result.err()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains(option.startsWith("--job-table") ? "--job-table" : option, expected);
        assertThat(result.err().lines().count())
                .as("one line, whatever the name holds")
                .isEqualTo(1);
        assertThat(DynamoDbHarness.client().listTables().tableNames())
                .doesNotContain(
                        stage.get(stage.indexOf("--ledger-table") + 1),
                        stage.get(stage.indexOf("--job-table") + 1)
                                .substring(RECORDS.name().length() + 1));
    }

    @Test
    void run_onAFreshEmulatorStage_createsTheTables_passes_andPrintsOneJsonObject() throws Exception {
        Result first = cli("run", DAILY);

        assertThat(first.exitCode()).isZero();
        assertThat(first.json().at("/occurrences/0/outcome").asText()).isEqualTo("PASS");
        assertThat(first.json().at("/occurrences/0/occurrence").asText()).isEqualTo("2026-11-30T14:00:00Z");
        assertThat(first.err()).isEmpty();
    }

    @Test
    void run_dryRun_showsThePreviewCounts_andLeavesTheOccurrenceToRun() throws Exception {
        Result dry = cli("run", DAILY, "--dry-run");
        Result real = cli("run", DAILY);

        assertThat(dry.exitCode()).isZero();
        assertThat(dry.json().at("/occurrences/0/reason").asText()).isEqualTo("DRY_RUN");
        assertThat(dry.json().at("/occurrences/0/preview").isObject()).isTrue();
        assertThat(dry.json().at("/occurrences/0/preview/deliveries").asLong()).isZero();
        assertThat(dry.json().at("/occurrences/0/preview/changes").asLong())
                .as("the daily job's preview: the one record it would write")
                .isEqualTo(1);
        assertThat(real.json().at("/occurrences/0/outcome").asText())
                .as("the dry run claimed and recorded nothing")
                .isEqualTo("PASS");
    }

    @Test
    void statusWatch_showsTheStatusAgainEveryInterval_onTheClock_untilStopped() throws Exception {
        List<Duration> waits = new java.util.concurrent.CopyOnWriteArrayList<>();

        Result table =
                cli(twoRefreshesThenCtrlC(waits), "status", DAILY, "--watch", "--every", "5s", "--output", "table");
        assertThat(Thread.interrupted())
                .as("the command kept the interrupt it stopped on")
                .isTrue();
        Result json = cli(twoRefreshesThenCtrlC(waits), "status", DAILY, "--watch", "--every", "5s", "--json");
        assertThat(Thread.interrupted()).isTrue();

        assertThat(table.exitCode()).as(table.err()).isZero();
        assertThat(table.out()
                        .lines()
                        .filter(l -> l.startsWith("stage dev at "))
                        .toList())
                .containsExactly(
                        "stage dev at 2026-11-30T14:00:02Z (every 5s; Ctrl-C stops)",
                        "stage dev at 2026-11-30T14:00:07Z (every 5s; Ctrl-C stops)",
                        "stage dev at 2026-11-30T14:00:12Z (every 5s; Ctrl-C stops)");
        assertThat(waits).hasSize(4).containsOnly(Duration.ofSeconds(5));
        assertThat(json.out().lines().toList())
                .hasSize(3)
                .allSatisfy(line -> assertThat(new ObjectMapper()
                                .readTree(line)
                                .path("jobs")
                                .get(0)
                                .path("job")
                                .asText())
                        .isEqualTo(DAILY));
    }

    /** A clock that the sleeper moves by each wait; the third wait is a Ctrl-C. */
    private static CliContext twoRefreshesThenCtrlC(List<Duration> waits) {
        SimulatedClock clock = new SimulatedClock(NOW.instant());
        int[] slept = {0};
        Sleeper sleeper = duration -> {
            if (slept[0]++ == 2) {
                throw new InterruptedException("Ctrl-C");
            }
            waits.add(duration);
            clock.advance(duration);
        };
        return new CliContext(clock, AwsAccess.fromProcess(), System.in, sleeper);
    }

    @Test
    void statusEvery_withoutWatch_isRefused() {
        Result result = cli("status", "--every", "5s");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("--every: only with --watch");
    }

    @Test
    void run_verbose_onTheEmulator_publishesItsLifecycleEvents_withoutAMissingBusWarning() {
        Result result = cli("run", DAILY, "--verbose", "--output", "table");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).as("the log lines --verbose prints").contains("\"job\":\"" + DAILY + "\"");
        assertThat(result.err()).doesNotContain("does not exist").doesNotContain("ResourceNotFound");
    }

    @Test
    void run_again_skipsAsAlreadyDone_andForceRunsIt_withReadableTableOnRequest() {
        cli("run", DAILY);

        Result again = cli("run", DAILY, "--output", "table");
        Result forced = cli("run", DAILY, "--force", "--output", "table");

        assertThat(again.exitCode()).as("it ran nothing").isEqualTo(PunctualCli.RAN_NOTHING);
        assertThat(again.out()).contains("OCCURRENCE (UTC)", "SKIP", "ALREADY_DONE");
        assertThat(again.err()).contains("punctual run: ran nothing: SKIP ALREADY_DONE");
        assertThat(forced.exitCode()).isZero();
        assertThat(forced.out()).contains("PASS", "OK");
    }

    @Test
    void run_unknownJob_exitsTwo_withOneLineOnStderr_andTheInvalidResultOnlyInJsonMode() throws Exception {
        Result result = cli("run", "no-such-job");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err().strip())
                .doesNotContain("\n")
                .startsWith("punctual run: job: UNKNOWN_JOB: ")
                .contains("no-such-job");
        JsonNode json = result.json();
        assertThat(json.at("/error/command").asText())
                .as("the error object every refusal prints")
                .isEqualTo("punctual run");
        assertThat(json.at("/error/field").asText()).isEqualTo("job");
        assertThat(json.at("/error/code").asText()).isEqualTo("UNKNOWN_JOB");
        assertThat(json.at("/error/problem").asText())
                .startsWith("UNKNOWN_JOB: job 'no-such-job' is not in the catalog");
        assertThat(json.at("/error/exit_code").asInt()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(json.at("/result/status").asText())
                .as("the handler's result beside it")
                .isEqualTo("INVALID");
        assertThat(cli("run", "no-such-job", "--output", "table").out()).isEmpty();
    }

    @Test
    void replay_withMax_countsOccurrencesToRun_namesTheNextFrom_andAgainGetsFurther() throws Exception {
        String[] replay = {
            "replay", QUARTER_HOURLY, "--from", "2026-11-30T00:00:00Z", "--to", "2026-11-30T01:00:00Z", "--max", "2"
        };

        Result first = cli(replay);
        Result second = cli(replay);
        Result dry = cli(
                "replay",
                QUARTER_HOURLY,
                "--from",
                "2026-11-30T00:00:00Z",
                "--to",
                "2026-11-30T01:00:00Z",
                "--dry-run");

        assertThat(first.json().at("/counts/pass").asInt()).isEqualTo(2);
        assertThat(first.json().at("/next_from").asText()).isEqualTo("2026-11-30T00:30:00Z");
        assertThat(first.err())
                .contains("not finished, 2 occurrence(s) left; continue with --from 2026-11-30T00:30:00Z");
        assertThat(second.json().at("/occurrences").findValuesAsText("reason"))
                .containsExactly("ALREADY_DONE", "ALREADY_DONE", "OK", "OK");
        assertThat(second.json().at("/next_from").isNull()).isTrue();
        assertThat(dry.json().at("/occurrences").findValuesAsText("reason"))
                .as("a dry run reads the ledger: done ones are marked done")
                .containsOnly("ALREADY_DONE")
                .hasSize(4);
    }

    @Test
    void status_table_honoursNext_alignsColumns_andSaysHowFarAwayEachRunIs() {
        cli("run", DAILY);

        Result status = cli("status", DAILY, "--next", "2", "--output", "table");

        List<String> lines = status.out().strip().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains("LAST", "LAG", "NEXT (LOCAL)", "IN");
        assertThat(lines.get(1)).contains("SUCCEEDED (now)", "2026-12-01T09:00:00-05:00", "in 23h 59m");
        assertThat(lines.get(2).strip()).isEqualTo("2026-12-02T09:00:00-05:00  in 1d 23h");
        assertThat(lines.get(2).indexOf("2026-12-02")).isEqualTo(lines.get(0).indexOf("NEXT (LOCAL)"));
    }

    @Test
    void maintenance_table_isASentence_withTheHoldAndHowLongItLasts() {
        Result on = cli("maintenance", "on", "--reason", "loading data", "--for", "2h", "--by", "ops", "-o", "table");
        Result off = cli("maintenance", "off", "--by", "ops", "-o", "table");

        assertThat(on.out())
                .startsWith("maintenance on in stage dev until 2026-11-30T16:00:02Z (in 2h 0m), set by ops:"
                        + " loading data");
        assertThat(on.out()).contains("groups held: ");
        assertThat(off.out()).startsWith("maintenance off in stage dev; groups lifted: ");
    }

    @Test
    void aMistypedCommand_exitsTwo_naming_theCommands_andTheClosest() {
        Result result = cli("stauts");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .startsWith("punctual: command: 'stauts' is not a command; accepted: ")
                .contains("run, replay", "did you mean status?");
    }

    @Test
    void aJobTableTheCatalogDoesNotDeclare_exitsTwo_namingTheDeclaredOnes() {
        Result result = cli("status", "--job-table", "Audit=punctual-dev-audit");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .contains("--job-table: 'Audit=punctual-dev-audit' names no table the catalog declares; accepted: "
                        + RECORDS.name());
    }

    @Test
    void theOldDomainTableOption_exitsTwo_namingTheJobTableOption() {
        Result result = cli("run", DAILY, "--domain-table", "mine");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .startsWith("punctual run: --domain-table: not an option any more; accepted: --job-table"
                        + " DECLARED=NAME");
    }

    @Test
    void theOldTableOption_exitsTwo_namingWhatEachOfItsMeaningsIsCalledNow() {
        Result result = cli("run", DAILY, "--table", "mine");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .startsWith("punctual run: --table: not an option any more; accepted: --ledger-table NAME")
                .contains("--output table");
    }

    @Test
    void aMistypedOption_exitsTwo_suggestingTheClosest() {
        Result result = cli("status", "--ledger-tabel", "x");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .contains("--ledger-tabel: not an option of this command", "did you mean --ledger-table?");
    }

    @Test
    void aBadOutputFormat_exitsTwo_namingTheFormatsAccepted() {
        Result result = cli("status", "--output", "yaml");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err().strip())
                .isEqualTo("punctual status: --output: 'yaml' is not accepted; accepted: table, wide, json");
    }

    @Test
    void completion_isAShellScriptForEveryCommand() {
        StringWriter out = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(out), new PrintWriter(new StringWriter()), NOW, "generate-completion");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("complete -F", "replay", "maintenance", "--ledger-table");
    }

    @Test
    void run_atAnInstantThatIsNotAnOccurrence_exitsTwo_namingTheNearestOccurrences() {
        Result result = cli("run", DAILY, "--at", "2026-11-30T13:59:00Z");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("NOT_AN_OCCURRENCE", "2026-11-29T14:00:00Z", "2026-11-30T14:00:00Z");
    }

    @Test
    void run_atAnInstantOutsideTheYearsEventBridgeSchedules_exitsTwoNamingTheOption_beforeConnecting() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                NOW,
                "run",
                DAILY,
                "--at",
                "2300-12-31T14:00:00Z",
                "--endpoint",
                "http://127.0.0.1:1");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString()).contains("--at", "outside the years EventBridge schedules", "1970 to 2199");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"2026-11-29T24:00:00Z", "2026-11-30T13:59:60Z", "2026-11-30t14:00:00z", "2026-11-30T14:00Z"})
    void run_atATextTheFunctionWouldRefuse_exitsTwoNamingTheOptionAndWhatIsAccepted_beforeConnecting(String at) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                NOW,
                "run",
                DAILY,
                "--at",
                at,
                "--endpoint",
                "http://127.0.0.1:1");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString()).contains("--at", at, "accepted: ISO-8601 with seconds and Z or an offset");
    }

    @Test
    void anyCommand_withAnEndpointThatIsNotAUrl_exitsTwoNamingTheOption() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code =
                PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), NOW, "status", "--endpoint", "notaurl");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString())
                .contains("--endpoint: 'notaurl' is not an http(s) URL")
                .doesNotContain("NullPointerException");
    }

    /** Made of pieces so that no scanner mistakes this file for a leak. */
    private static final String TOKEN = "gh" + "p_" + "Zq8Lm2Nx4Pw6Rt8Yv0Ab2Cd4Ef6Gh8Ij0Kl";

    private static Result direct(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), NOW, args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void anUnknownPasswordOption_isRefusedWithThePasswordMasked_onStderrAndInTheJsonErrorObject() throws Exception {
        Result result = cli("status", "--password=hunter2-" + TOKEN);

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .contains("--password=[REDACTED]: not an option")
                .doesNotContain("hunter2", TOKEN);
        assertThat(result.json().at("/error/field").asText()).isEqualTo("--password=[REDACTED]");
        assertThat(result.out()).doesNotContain("hunter2", TOKEN);
    }

    @Test
    void aTokenTypedAsAJobOrACommand_isRefusedWithTheTokenMasked() throws Exception {
        Result job = direct("jobs", TOKEN, "--json");
        Result command = direct(TOKEN);

        assertThat(job.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(job.err())
                .startsWith("punctual jobs: JOB: '[REDACTED]' is not a job")
                .doesNotContain(TOKEN);
        assertThat(job.json().at("/error/problem").asText()).isEqualTo("'[REDACTED]' is not a job of this catalog");
        assertThat(command.err())
                .startsWith("punctual: command: '[REDACTED]' is not a command")
                .doesNotContain(TOKEN);
    }

    @Test
    void anEndpointWithAPassword_isNeverEchoed_whetherRefusedOrUnreachable() throws Exception {
        Result refused = direct("status", "--endpoint", "ftp://ops:S3cretPw@127.0.0.1:1", "--json");
        Result unreachable = direct("status", "--endpoint", "http://ops:S3cretPw@127.0.0.1:1", "--json");

        assertThat(refused.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err()).contains("--endpoint: 'ftp://ops:[REDACTED]@127.0.0.1:1' is not an http(s) URL");
        assertThat(unreachable.exitCode()).isEqualTo(PunctualCli.FAILURE);
        assertThat(unreachable.err()).contains("could not reach the endpoint http://ops:[REDACTED]@127.0.0.1:1");
        assertThat(refused.out() + refused.err() + unreachable.out() + unreachable.err())
                .doesNotContain("S3cretPw");
    }

    /** Every argument whose refusal echoes it back, as probing found them (issue 24, item 14f). */
    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> echoingArguments() {
        String big = "v".repeat(100_000);
        String endpoint = "http://127.0.0.1:1";
        return java.util.stream.Stream.of(
                        List.of("run", DAILY, "--at=" + big, "--endpoint", endpoint),
                        List.of("run", DAILY, "--skew-tolerance=" + big, "--endpoint", endpoint),
                        List.of("run", DAILY, "--stage=" + big),
                        List.of("run", DAILY, "--endpoint=" + big),
                        List.of("run", DAILY, "--job-table=" + big, "--endpoint", endpoint),
                        List.of("run", DAILY, "--output=" + big),
                        List.of("run", DAILY, "--" + big),
                        List.of("run", DAILY, big, "--endpoint", endpoint),
                        List.of("replay", DAILY, "--max=" + big, "--endpoint", endpoint),
                        List.of("invoke", "--event=" + big, "--endpoint", endpoint),
                        List.of("status", "--next=" + big, "--endpoint", endpoint),
                        List.of("maintenance", big, "--endpoint", endpoint),
                        List.of("logs", "--outcome=" + big),
                        List.of("logs", "--since=" + big),
                        List.of("verify", "--stage=" + big),
                        List.of("verify", "--stage=dev", "--log-wait=" + big),
                        List.of("plan", "--job", DAILY, "--to=" + big),
                        List.of("plan", "--job", DAILY, "--count=" + big),
                        List.of("jobs", big),
                        List.of("jobs", "--next=" + big),
                        List.of("emulator", "--for=" + big),
                        List.of(big))
                .map(args -> org.junit.jupiter.params.provider.Arguments.of(
                        String.join(" ", args).replace(big, "<100 KB>"), args));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("echoingArguments")
    void aRefusal_echoesAHundredKilobyteValueAsItsFirst200Characters_andHowManyMore(String name, List<String> args)
            throws Exception {
        List<String> json = new ArrayList<>(args);
        json.add("--json");
        Result text = direct(args.toArray(String[]::new));
        Result inJson = direct(json.toArray(String[]::new));

        assertThat(text.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(text.err().strip())
                .doesNotContain("\n")
                .contains("v".repeat(RefusalLine.VALUE_MAX - 2) + "… (")
                .doesNotContain("v".repeat(RefusalLine.VALUE_MAX + 1))
                .containsPattern("… \\(99\\d{3} more characters\\)");
        assertThat(text.err().strip().length()).isLessThan(RefusalLine.LINE_MAX);
        String error = inJson.json().at("/error").toString();
        assertThat(error).doesNotContain("v".repeat(RefusalLine.VALUE_MAX + 1));
        if (!error.contains("--json")) { // emulator takes no --json: its refusal names that option instead
            assertThat(error).containsPattern("… \\(99\\d{3} more characters\\)");
        }
    }

    @Test
    void run_atAFutureOccurrence_exitsTwoNotDue_andWritesNothing() {
        Result result = cli("run", DAILY, "--at", "2026-12-01T14:00:00Z");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("NOT_DUE", "is after now");
    }

    @Test
    void replay_dryRun_listsWithoutWriting_thenTheRealReplayRunsAndReportsProgress() throws Exception {
        Result dry = cli(
                "replay",
                QUARTER_HOURLY,
                "--from",
                "2026-11-30T00:00:00Z",
                "--to",
                "2026-11-30T01:00:00Z",
                "--dry-run");
        Result real = cli("replay", QUARTER_HOURLY, "--from", "2026-11-30T00:00:00Z", "--to", "2026-11-30T01:00:00Z");

        assertThat(dry.json().at("/counts/skip").asInt()).isEqualTo(4);
        assertThat(real.json().at("/counts/pass").asInt()).isEqualTo(4);
        assertThat(real.err()).contains("replay " + QUARTER_HOURLY + ": 4 done");
    }

    @Test
    void status_ofAJobThatNeverRan_saysSo_insteadOfAZeroLagThatLooksHealthy() throws Exception {
        Result status = cli("status", DAILY, "--json");
        Result table = cli("status", DAILY, "--output", "table");

        assertThat(status.exitCode()).as(status.err()).isZero();
        JsonNode job = status.json().at("/jobs/0");
        assertThat(job.get("never_ran").asBoolean()).isTrue();
        assertThat(job.get("lag_ms").isNull()).isTrue();
        assertThat(job.get("last").isNull()).isTrue();
        assertThat(job.at("/next/0/local").asText()).isEqualTo("2026-12-01T09:00:00-05:00");
        assertThat(table.out()).contains("never ran (first: NEXT)").doesNotContain(" 0s ");
    }

    @Test
    void status_afterAScheduledDelivery_showsTheCursorLastOutcomeAndNextOccurrencesInLocalTime() throws Exception {
        Result delivered = cli("invoke", "--event", "src/test/resources/events/scheduled-" + DAILY + ".json");
        assertThat(delivered.exitCode()).as(delivered.err()).isZero();

        Result status = cli("status", DAILY, "--json");

        assertThat(status.exitCode()).isZero();
        JsonNode job = status.json().at("/jobs/0");
        assertThat(job.get("job").asText()).isEqualTo(DAILY);
        assertThat(job.get("cursor").asText()).isEqualTo("2026-11-30T14:00:00Z");
        assertThat(job.at("/last/status").asText()).isEqualTo("SUCCEEDED");
        assertThat(job.at("/next/0/local").asText()).isEqualTo("2026-12-01T09:00:00-05:00");
        assertThat(job.get("lag_ms").asLong()).isZero();
        assertThat(job.get("never_ran").asBoolean()).isFalse();
    }

    @Test
    void maintenance_on_takesEveryLockGroup_jobsSkip_andOff_letsThemRunAgain() throws Exception {
        Result on = cli("maintenance", "on", "--reason", "loading synthetic data", "--for", "1h", "--by", "ops");
        Result skipped = cli("run", DAILY);
        Result status = cli("status", "--json");
        Result off = cli("maintenance", "off", "--by", "ops");
        Result ran = cli("run", DAILY);

        assertThat(on.exitCode()).isZero();
        assertThat(on.json().get("groups_taken").toString()).contains(DAILY, SHARED_GROUP, DESTRUCTIVE, DELIVERING);
        assertThat(skipped.json().at("/occurrences/0/reason").asText()).isEqualTo("MAINTENANCE");
        assertThat(status.json().at("/jobs/0/maintenance/reason").asText()).isEqualTo("loading synthetic data");
        assertThat(status.json().at("/jobs/0/lease/kind").asText()).isEqualTo("MAINTENANCE");
        assertThat(status.json().at("/jobs/0/lease/until").asText()).isNotBlank();
        // A hold leaves the group's fence as the jobs left it (decision 0037): none has run here.
        assertThat(status.json().at("/jobs/0/lease/fence").asLong()).isZero();
        assertThat(off.exitCode()).isZero();
        assertThat(ran.json().at("/occurrences/0/outcome").asText()).isEqualTo("PASS");
    }

    @Test
    void maintenanceOn_whileAJobHoldsItsGroupPastTheWait_isPartlyOn_namingIt_afterWaitingOnTheClock() throws Exception {
        cli("status");
        Instant occurrence = Instant.parse("2026-11-30T14:00:00Z");
        ClaimResult running = ledger(NOW)
                .claim(ClaimRequest.scheduled(
                                new RunKey(DAILY, occurrence),
                                1,
                                3,
                                NOW.instant().plusSeconds(600))
                        .inGroup(DAILY));
        assertThat(running).isInstanceOf(ClaimResult.Claimed.class);
        SimulatedClock clock = new SimulatedClock(NOW.instant());
        List<Duration> waits = new ArrayList<>();
        Sleeper sleeper = d -> {
            waits.add(d);
            clock.advance(d);
        };

        Result on = cli(
                new CliContext(clock, AwsAccess.fromProcess(), java.io.InputStream.nullInputStream(), sleeper),
                "maintenance",
                "on",
                "--reason",
                "loading data",
                "--for",
                "1h",
                "--by",
                "ops",
                "--wait",
                "2s");

        assertThat(on.exitCode()).as(on.err()).isEqualTo(PunctualCli.FAILURE);
        assertThat(on.json().get("maintenance").asText()).isEqualTo("partly on");
        assertThat(on.json().at("/still_running/0/group").asText()).isEqualTo(DAILY);
        assertThat(on.err()).contains("maintenance: still running after 2s: [" + DAILY + " (");
        assertThat(waits).isNotEmpty().allMatch(d -> d.equals(Duration.ofMillis(500)));
        assertThat(waits.stream().reduce(Duration.ZERO, Duration::plus)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        cli("maintenance", "off", "--by", "ops");
    }

    private RunLedger ledger(Clock clock) {
        return DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                stage.get(stage.indexOf("--ledger-table") + 1),
                clock,
                () -> java.util.UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {
                    throw new IllegalStateException("the test's ledger does not wait");
                });
    }

    @Test
    void maintenanceOff_ofAHoldSetBySomeoneElse_isRefusedNamingThem_untilForced() throws Exception {
        cli("maintenance", "on", "--reason", "loading synthetic data", "--for", "1h", "--by", "alice");

        Result refused = cli("maintenance", "off", "--by", "bob");
        Result stillHeld = cli("run", DAILY);
        Result forced = cli("maintenance", "off", "--by", "bob", "--force");

        assertThat(refused.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err()).contains("set by alice: loading synthetic data", "--force");
        assertThat(stillHeld.json().at("/occurrences/0/reason").asText()).isEqualTo("MAINTENANCE");
        assertThat(forced.exitCode()).isZero();
        assertThat(cli("run", DAILY).json().at("/occurrences/0/outcome").asText())
                .isEqualTo("PASS");
    }

    @Test
    void maintenanceOn_whileSomeoneElsesHoldIsInForce_exitsTwo_withOneLineNamingWhoWhyAndUntil_andTheirHoldStays()
            throws Exception {
        cli("maintenance", "on", "--reason", "loading synthetic data", "--for", "1h", "--by", "alice");

        Result second = cli("maintenance", "on", "--reason", "something else", "--for", "2h", "--by", "bob");
        Result status = cli("status", "--json");

        assertThat(second.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(second.err().strip())
                .doesNotContain("\n")
                .startsWith("punctual maintenance: on: maintenance is already on: ")
                .contains("(set by alice: loading synthetic data, until 2026-11-30T15:00:02Z)")
                .endsWith("; accepted: wait until it ends, maintenance off --by alice, or --force to replace the hold");
        assertThat(second.json().at("/error/field").asText()).isEqualTo("on");
        assertThat(second.json().at("/error/problem").asText())
                .startsWith("maintenance is already on: ")
                .contains("set by alice");
        assertThat(second.json().at("/error/exit_code").asInt()).isEqualTo(2);
        assertThat(status.json().at("/jobs/0/maintenance/reason").asText()).isEqualTo("loading synthetic data");
        assertThat(status.json().at("/jobs/0/maintenance/set_by").asText()).isEqualTo("alice");
        assertThat(status.json().at("/jobs/0/maintenance/until").asText()).isEqualTo("2026-11-30T15:00:02Z");
        cli("maintenance", "off", "--by", "alice");
    }

    @Test
    void maintenanceOn_againWithTheSameBy_replacesYourOwnHold_withTheNewReasonAndEnd() throws Exception {
        cli("maintenance", "on", "--reason", "loading synthetic data", "--for", "1h", "--by", "alice");

        Result again = cli("maintenance", "on", "--reason", "loading more data", "--for", "2h", "--by", "alice");
        Result status = cli("status", "--json");

        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.json().get("maintenance").asText()).isEqualTo("on");
        assertThat(again.json().get("until").asText()).isEqualTo("2026-11-30T16:00:02Z");
        assertThat(status.json().at("/jobs/0/maintenance/reason").asText()).isEqualTo("loading more data");
        assertThat(status.json().at("/jobs/0/maintenance/until").asText()).isEqualTo("2026-11-30T16:00:02Z");
        cli("maintenance", "off", "--by", "alice");
    }

    @Test
    void maintenanceOn_forced_replacesSomeoneElsesHold() throws Exception {
        cli("maintenance", "on", "--reason", "loading synthetic data", "--for", "1h", "--by", "alice");

        Result forced = cli("maintenance", "on", "--reason", "urgent repair", "--for", "10m", "--by", "bob", "--force");
        Result status = cli("status", "--json");

        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(status.json().at("/jobs/0/maintenance/set_by").asText()).isEqualTo("bob");
        assertThat(status.json().at("/jobs/0/maintenance/reason").asText()).isEqualTo("urgent repair");
        cli("maintenance", "off", "--by", "bob");
    }

    @Test
    void maintenance_onWithoutReason_exitsTwo_withTheErrorAsJsonOnStdoutInJsonMode() throws Exception {
        Result result = cli("maintenance", "on", "--for", "1h");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).startsWith("punctual maintenance: --reason: required with on; accepted: ");
        assertThat(result.json().at("/error/field").asText()).isEqualTo("--reason");
        assertThat(result.json().at("/error/accepted").asText()).startsWith("--reason TEXT --for DURATION");
        assertThat(result.json().at("/error/exit_code").asInt()).isEqualTo(2);
        assertThat(cli("maintenance", "on", "--for", "1h", "--output", "table").out())
                .isEmpty();
    }

    @Test
    void invoke_ofAnEventFileThatDoesNotExist_saysSo_namingWhatIsAccepted_onceNotTwice() {
        Result result = cli("invoke", "--event", "events/nope.json");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .contains("--event: 'events/nope.json' does not exist; accepted: a payload file")
                .doesNotContain("': events/nope.json");
    }

    @Test
    void aWholeNumberOptionGivenText_exitsTwo_namingTheOptionAndWhatIsAccepted() {
        Result result = cli("status", "--next", "abc");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("--next: 'abc' is not an int; accepted: a whole number");
    }

    @Test
    void maintenance_onWithAReasonButNoLength_namesOnlyTheMissingFor() {
        Result result = cli("maintenance", "on", "--reason", "x");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).startsWith("punctual maintenance: --for: required with on; accepted: ");
    }

    @Test
    void maintenance_offWithAReasonOrALength_isRefused_ratherThanIgnored() {
        Result withReason = cli("maintenance", "off", "--reason", "done");
        Result withLength = cli("maintenance", "off", "--for", "1h");

        assertThat(withReason.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(withReason.err()).contains("--reason: not an option of off; accepted: off [--by WHO] [--force]");
        assertThat(withLength.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(withLength.err()).contains("--for: not an option of off");
    }

    @Test
    void run_destructiveJobInDev_isRefused_unlessAllowedForThatOneCommand() throws Exception {
        Result refused = cli("run", DESTRUCTIVE);
        String occurrence = refused.json().at("/occurrences/0/occurrence").asText();
        // Where destructive jobs are allowed, this one also needs an approval of the occurrence (decision 0041).
        Result unapproved = cli("run", DESTRUCTIVE, "--force", "--allow-destructive");
        Result approved = cli("approve", DESTRUCTIVE, "--at", occurrence, "--reason", "counts checked");
        Result allowed = cli("run", DESTRUCTIVE, "--force", "--allow-destructive");
        Result refusedAgain = cli("run", DESTRUCTIVE, "--force");

        assertThat(refused.json().at("/occurrences/0/reason").asText()).isEqualTo("DESTRUCTIVE_DISABLED");
        assertThat(unapproved.json().at("/occurrences/0/reason").asText()).isEqualTo("UNAPPROVED");
        assertThat(approved.exitCode()).as(approved.err()).isZero();
        assertThat(allowed.json().at("/occurrences/0/outcome").asText()).isEqualTo("PASS");
        assertThat(allowed.err()).contains("destructive jobs are allowed for this one command");
        assertThat(refusedAgain.json().at("/occurrences/0/reason").asText()).isEqualTo("DESTRUCTIVE_DISABLED");
    }

    @Test
    void run_atAnOccurrenceNotYetDue_exitsTwo() throws Exception {
        Result result = cli("run", DAILY, "--at", "2026-12-01T14:00:00Z");

        assertThat(result.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).startsWith("punctual run: at: NOT_DUE: ");
        assertThat(result.json().at("/error/code").asText()).isEqualTo("NOT_DUE");
    }
}
