package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.reading.LogsCommand;
import dev.punctual.cli.reading.LogsInsightsStandIn;
import dev.punctual.cli.reading.StatusCommand;
import dev.punctual.cli.running.InvocationCommands;
import dev.punctual.cli.schedules.EntityStage;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.handler.LambdaInvokeStandIn;
import dev.punctual.job.JobCatalog;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.testing.DynamoDbHarness;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code run}, {@code replay} and {@code status} of one entity ({@code --entity E}) against a deployed stage (moto's
 * CloudFormation and EventBridge Scheduler, the Lambda stand-in): the entity's schedule is read from the
 * stage's entity group and its delivery fields go into the payload as in a live delivery. The stand-in's
 * functions run Punctual's fixture catalog, which has no per-entity job, so these tests assert what the
 * CLI sends and refuses; the function's checks of those fields are the handler's tests'.
 */
class EntityOperatorCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final String REPORT = EntityStage.REPORT;
    static final String DAILY = EntityStage.DAILY;

    private static final JobCatalog CATALOG = EntityStage.CATALOG;

    private static DeployedStageFixture stage;

    private static LogsInsightsStandIn logs;

    /** Outcome lines of two entities of the per-entity job, as the handler writes them (the fields logs reads). */
    private static final List<String> OUTCOME_LINES = List.of(
            "{\"timestamp\":\"2026-11-30T06:00:01Z\",\"level\":\"INFO\",\"message\":\"occurrence outcome\",\"job\":\""
                    + REPORT + "\",\"entity\":\"acme\",\"occurrence\":\"2026-11-30T06:00:00Z\",\"outcome\":\"PASS\"}",
            "{\"timestamp\":\"2026-11-30T08:00:01Z\",\"level\":\"INFO\",\"message\":\"occurrence outcome\",\"job\":\""
                    + REPORT
                    + "\",\"entity\":\"globex\",\"occurrence\":\"2026-11-30T08:00:00Z\",\"outcome\":\"FAIL\"}");

    @BeforeAll
    static void deploy() {
        String name = "dev-" + UUID.randomUUID().toString().substring(0, 6);
        Map<String, String> outputs = EntityStage.entityOutputs(name);
        stage = DeployedStageFixture.deploy(name, CliRun.NOW, Duration.ofMinutes(1), outputs);
        logs = LogsInsightsStandIn.start();
        logs.putLines("/aws/lambda/punctual-" + name + "-default", OUTCOME_LINES);
        LogsInsightsStandIn.documentedQueries()
                .forEach((query, text) -> logs.saveQuery("punctual/" + name + "/" + query, text, List.of()));
        EntityStage.createEntityGroup(stage.aws(), name);
        CliRun put = cli(
                "schedules",
                "put",
                REPORT,
                "acme",
                "--zone",
                "Europe/Paris",
                "--schedule",
                "0 7 * * *",
                "--param",
                "locale=fr",
                "--stage",
                stage.stage());
        assertThat(put.code()).as(put.err()).isZero();
    }

    @AfterAll
    static void close() {
        logs.close();
        stage.close();
    }

    /** The CLI as in production, with run, replay and schedules on this test's catalog. */
    private static CliRun cli(String... args) {
        Map<String, java.net.URI> endpoints =
                new java.util.HashMap<>(stage.aws().endpoints());
        endpoints.put(AwsAccess.LOGS, logs.endpoint());
        CliContext context = new CliContext(
                CliRun.NOW,
                new AwsAccess(stage.aws().env(), stage.aws().credentials(), endpoints),
                InputStream.nullInputStream(),
                duration -> {
                    throw new IllegalStateException("these commands never wait");
                });
        // What docs/entities.md shows ("Operating one entity") is this output.
        return EntityStage.cli(
                context,
                all -> {
                    all.put("run", () -> new InvocationCommands.Run(context, ignored -> CATALOG));
                    all.put("replay", () -> new InvocationCommands.Replay(context, ignored -> CATALOG));
                    all.put("schedules", () -> SchedulesCommand.commandLine(context, ignored -> CATALOG));
                    all.put("status", () -> new StatusCommand(context, ignored -> CATALOG));
                    all.put("logs", () -> new LogsCommand(context, ignored -> CATALOG));
                    return all;
                },
                args);
    }

    private static List<LambdaInvokeStandIn.Invocation> invocations() {
        return stage.lambda().invocations();
    }

    @Test
    void run_withEntity_sendsTheEntitysScheduleFields_asItsLiveDeliveryCarriesThem() throws Exception {
        int before = invocations().size();
        cli("run", REPORT, "--entity", "acme", "--at", "2026-11-30T06:00:00Z", "--stage", stage.stage());

        assertThat(invocations()).hasSize(before + 1);
        JsonNode sent = JSON.readTree(invocations().get(before).payload());
        assertThat(sent)
                .isEqualTo(JSON.readTree("{\"kind\":\"run\",\"job\":\"" + REPORT + "\",\"entity\":\"acme\","
                        + "\"schedule\":\"0 7 * * *\",\"zone\":\"Europe/Paris\",\"parameters\":{\"locale\":\"fr\"},"
                        + "\"at\":\"2026-11-30T06:00:00Z\",\"force\":false}"));
    }

    @Test
    void replay_withEntity_sendsTheEntitysFields_withTheRange() throws Exception {
        int before = invocations().size();
        cli(
                "replay",
                REPORT,
                "--entity",
                "acme",
                "--from",
                "2026-11-28T00:00:00Z",
                "--to",
                "2026-11-30T00:00:00Z",
                "--stage",
                stage.stage());

        assertThat(invocations()).hasSizeGreaterThan(before);
        JsonNode sent = JSON.readTree(invocations().get(before).payload());
        assertThat(sent.path("kind").asText()).isEqualTo("replay");
        assertThat(sent.path("entity").asText()).isEqualTo("acme");
        assertThat(sent.path("zone").asText()).isEqualTo("Europe/Paris");
        assertThat(sent.path("schedule").asText()).isEqualTo("0 7 * * *");
        assertThat(sent.path("parameters").path("locale").asText()).isEqualTo("fr");
        assertThat(sent.path("from").asText()).isEqualTo("2026-11-28T00:00:00Z");
    }

    @Test
    void run_ofAnEntityWithoutSchedule_exitsTwo_namingTheEntityAndJob_beforeInvokingAnything() {
        int before = invocations().size();
        CliRun run = cli("run", REPORT, "--entity", "globex", "--stage", stage.stage());

        assertThat(run.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(run.err())
                .contains(
                        "--entity: entity 'globex' of job '" + REPORT + "' has no schedule",
                        "schedules put " + REPORT + " globex --zone ZONE");
        assertThat(invocations()).hasSize(before);
    }

    @Test
    void replay_ofAPerEntityJobWithoutEntity_isRefused_sayingEntityIsRequired() {
        int before = invocations().size();
        CliRun replay = cli(
                "replay",
                REPORT,
                "--from",
                "2026-11-28T00:00:00Z",
                "--to",
                "2026-11-30T00:00:00Z",
                "--stage",
                stage.stage());

        assertThat(replay.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(replay.err()).contains("--entity: required, job '" + REPORT + "' runs per entity");
        assertThat(invocations()).hasSize(before);
    }

    @Test
    void run_withEntity_ofAJobOfOneSchedule_isRefused_namingTheOption_andThePerEntityJobs() {
        int before = invocations().size();
        CliRun run = cli("run", DAILY, "--entity", "acme", "--stage", stage.stage());

        assertThat(run.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(run.err())
                .contains("--entity: job '" + DAILY + "' has one schedule of its own", "per-entity job (" + REPORT);
        assertThat(invocations()).hasSize(before);
    }

    @Test
    void run_withAnEntityIdOutsideTheGrammar_isRefused_withTheEntityRule() {
        CliRun run = cli("run", REPORT, "--entity", "a\"b", "--local", "--stage", stage.stage());

        assertThat(run.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(run.err()).contains("--entity: ", "is not accepted; accepted: letters, digits");
    }

    @Test
    void helpOfRunAndReplay_describesEntity() {
        assertThat(cli("run", "--help").out()).contains("--entity=ENTITY", "per-entity job");
        assertThat(cli("replay", "--help").out()).contains("--entity=ENTITY", "per-entity job");
    }

    @Test
    void statusWithEntity_showsItsCursorLeaseAndLastRun_underJobColonEntity_withItsOwnNextOccurrences()
            throws Exception {
        String ledgerId = REPORT + ":acme";
        var ledger = DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                stage.ledgerTable(),
                CliRun.NOW,
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {
                    throw new IllegalStateException("the test's ledger does not wait");
                });
        Instant yesterday = Instant.parse("2026-11-29T06:00:00Z");
        Instant today = Instant.parse("2026-11-30T06:00:00Z");
        ledger.recordMissed(new RunKey(ledgerId, yesterday), yesterday, 1);
        ClaimResult running = ledger.claim(ClaimRequest.scheduled(
                        new RunKey(ledgerId, today), 1, 3, CliRun.NOW.instant().plusSeconds(600))
                .inGroup(ledgerId));
        assertThat(running).isInstanceOf(ClaimResult.Claimed.class);

        CliRun json = cli("status", REPORT, "--entity", "acme", "--stage", stage.stage(), "-o", "json");
        CliRun table = cli("status", REPORT, "--entity", "acme", "--stage", stage.stage(), "--next", "1", "-o", "wide");

        assertThat(json.code()).as(json.err()).isZero();
        JsonNode row = JSON.readTree(json.out()).at("/jobs/0");
        assertThat(row.path("job").asText()).isEqualTo(REPORT);
        assertThat(row.path("entity").asText()).isEqualTo("acme");
        assertThat(row.path("ledger_id").asText()).isEqualTo(ledgerId);
        assertThat(row.path("zone").asText()).isEqualTo("Europe/Paris");
        assertThat(row.path("cursor").asText()).isEqualTo(yesterday.toString());
        assertThat(row.at("/last/occurrence").asText()).isEqualTo(today.toString());
        assertThat(row.at("/last/status").asText()).isEqualTo("RUNNING");
        assertThat(row.at("/lease/group").asText()).as("the entity's own lease").isEqualTo(ledgerId);
        assertThat(row.at("/next/0/utc").asText()).isEqualTo("2026-12-01T06:00:00Z");
        assertThat(table.code()).as(table.err()).isZero();
        assertThat(table.out()).contains(ledgerId, "RUNNING", yesterday.toString());
    }

    @Test
    void statusOfAPerEntityJobWithoutEntity_saysItRunsPerEntity_andHowToSeeOne_withoutReadingAnyEntity() {
        CliRun table = cli("status", REPORT, "--stage", stage.stage());
        CliRun json = cli("status", REPORT, "--stage", stage.stage(), "-o", "json");

        assertThat(table.code()).as(table.err()).isZero();
        assertThat(table.out())
                .contains(
                        "per entity (see below)",
                        REPORT + " runs per entity: punctual status " + REPORT + " --entity ENTITY shows one");
        assertThat(json.out()).contains("\"per_entity\":true", "\"zone\":\"per entity\"", "\"maintenance\":null");
    }

    @Test
    void statusWithEntity_ofAJobOfOneSchedule_orWithoutJob_isRefused_namingEntity() {
        CliRun oneSchedule = cli("status", DAILY, "--entity", "acme", "--stage", stage.stage());
        CliRun noJob = cli("status", "--entity", "acme", "--stage", stage.stage());

        assertThat(oneSchedule.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(oneSchedule.err()).contains("--entity: job '" + DAILY + "' has one schedule of its own");
        assertThat(noJob.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(noJob.err()).contains("--entity: needs JOB");
    }

    @Test
    void statusWithEntity_ofAnEntityWithoutSchedule_showsItsLedgerState_andSaysItHasNoSchedule() throws Exception {
        CliRun status = cli("status", REPORT, "--entity", "initech", "--stage", stage.stage(), "-o", "json");

        assertThat(status.code()).as(status.err()).isZero();
        assertThat(status.err()).contains("entity 'initech' of job '" + REPORT + "' has no schedule in group");
        assertThat(JSON.readTree(status.out()).at("/jobs/0/never_ran").asBoolean())
                .isTrue();
    }

    @Test
    void helpOfStatus_describesEntity() {
        assertThat(cli("status", "--help").out()).contains("--entity=ENTITY", "per-entity JOB");
    }

    @Test
    void logsWithEntity_narrowsTheTimelineToTheEntitysLines_byItsEntityField() throws Exception {
        CliRun result =
                cli("logs", REPORT, "--entity", "acme", "--since", "12h", "--stage", stage.stage(), "-o", "json");

        assertThat(result.code()).as(result.err()).isZero();
        JsonNode rows = JSON.readTree(result.out()).path("rows");
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).path("occurrence").asText()).isEqualTo("2026-11-30T06:00:00Z");
        String query = logs.started().get(logs.started().size() - 1).queryString();
        assertThat(query).contains("| filter job = \"" + REPORT + "\"", "| filter entity = \"acme\"");
    }

    @Test
    void logsWithEntity_outsideTheEntityRule_isRefused_beforeAnyQuery() {
        int before = logs.started().size();
        CliRun quote = cli("logs", REPORT, "--entity", "acme\" or job = \"x", "--stage", stage.stage());
        CliRun noJob = cli("logs", "--entity", "a\\b", "--stage", stage.stage());

        assertThat(quote.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(quote.err()).contains("--entity: ", "is not accepted; accepted: letters, digits");
        assertThat(noJob.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(noJob.err()).contains("--entity: ", "is not accepted");
        assertThat(logs.started()).hasSize(before);
    }

    @Test
    void logsWithEntity_ofAJobOfOneSchedule_isRefused_namingEntity() {
        CliRun result = cli("logs", DAILY, "--entity", "acme", "--stage", stage.stage());

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("--entity: job '" + DAILY + "' has one schedule of its own");
    }

    @Test
    void helpOfLogs_describesEntity() {
        assertThat(cli("logs", "--help").out()).contains("--entity=ENTITY", "per-entity JOB");
    }
}
