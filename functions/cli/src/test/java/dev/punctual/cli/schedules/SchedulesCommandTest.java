package dev.punctual.cli.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.CliRun;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobCatalog;
import dev.punctual.stage.StageOutputs;
import dev.punctual.testing.DynamoDbHarness;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code schedules put|get|list|delete} against a stage whose stack (moto's CloudFormation) carries the
 * entity outputs the CDK app writes, and moto's EventBridge Scheduler API, on a catalog with a per-entity
 * job (Punctual's fixture catalog has none).
 */
class SchedulesCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCOUNT = DeployedStageFixture.ACCOUNT;
    private static final String REGION = DeployedStageFixture.REGION;

    static final String REPORT = EntityStage.REPORT;
    static final String DAILY = EntityStage.DAILY;

    private static final JobCatalog CATALOG = EntityStage.CATALOG;

    /** A stage with a per-entity job deployed, and one deployed before (or without) any. */
    private static String stage;

    private static String plainStage;

    private static AwsAccess aws;

    @BeforeAll
    static void deploy() {
        URI moto = DynamoDbHarness.backend().endpoint();
        aws = AwsAccess.loopback(
                REGION,
                Map.of(
                        AwsAccess.CLOUDFORMATION, moto,
                        AwsAccess.SCHEDULER, moto,
                        AwsAccess.DYNAMODB, moto));
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        stage = "ent-" + suffix;
        plainStage = "plain-" + suffix;
        EntityStage.deploy(aws, stage);
        DeployedStageFixture.createStack(aws, plainStage, EntityStage.outputs(plainStage, false));
    }

    /** The CLI as in production, with the schedules command on this test's catalog. */
    private static CliRun cli(String... args) {
        CliContext context = new CliContext(CliRun.NOW, aws, InputStream.nullInputStream(), duration -> {
            throw new IllegalStateException("schedules never waits");
        });
        // What docs/entities.md shows ("From the CLI") is this output.
        return EntityStage.cli(
                context,
                all -> {
                    all.put("schedules", () -> SchedulesCommand.commandLine(context, ignored -> CATALOG));
                    return all;
                },
                args);
    }

    @Test
    void put_createsTheSchedule_thenTheSamePutIsUnchanged_andAnotherZoneUpdatesIt() {
        CliRun created = cli(
                "schedules", "put", REPORT, "acme", "--zone", "Europe/Paris", "--param", "locale=fr", "--stage", stage);
        assertThat(created.code()).as(created.err()).isZero();
        assertThat(created.out().strip())
                .isEqualTo("CREATED tenant-report.acme (group " + EntityScheduleName.group(stage) + ")");

        CliRun again = cli(
                "schedules", "put", REPORT, "acme", "--zone", "Europe/Paris", "--param", "locale=fr", "--stage", stage);
        assertThat(again.code()).isZero();
        assertThat(again.out()).startsWith("UNCHANGED tenant-report.acme");

        CliRun moved = cli(
                "schedules",
                "put",
                REPORT,
                "acme",
                "--zone",
                "America/New_York",
                "--param",
                "locale=fr",
                "--stage",
                stage,
                "-o",
                "json");
        assertThat(moved.code()).isZero();
        JsonNode json = json(moved.out());
        assertThat(json.path("change").asText()).isEqualTo("UPDATED");
        assertThat(json.path("zone").asText()).isEqualTo("America/New_York");
        assertThat(json.path("name").asText()).isEqualTo("tenant-report.acme");

        CliRun got = cli("schedules", "get", REPORT, "acme", "--stage", stage);
        assertThat(got.code()).isZero();
        assertThat(got.out())
                .contains("ENTITY", "SCHEDULE", "ZONE", "PARAMETERS", "NAME")
                .contains("acme", "0 9 * * *", "America/New_York", "locale=fr", "tenant-report.acme");
    }

    @Test
    void list_showsEveryEntity_asATableAndAsOneJsonObject() {
        String beta = "beta-" + UUID.randomUUID().toString().substring(0, 4);
        assertThat(cli("schedules", "put", REPORT, "alpha", "--zone", "UTC", "--stage", stage)
                        .code())
                .isZero();
        assertThat(cli(
                                "schedules",
                                "put",
                                REPORT,
                                beta,
                                "--zone",
                                "Asia/Tokyo",
                                "--schedule",
                                "30 7 * * 1-5",
                                "--param",
                                "locale=ja",
                                "--stage",
                                stage)
                        .code())
                .isZero();

        CliRun table = cli("schedules", "list", REPORT, "--stage", stage);
        assertThat(table.code()).isZero();
        String[] lines = table.out().strip().split("\n");
        assertThat(lines[0]).matches("ENTITY +SCHEDULE +ZONE +PARAMETERS +NAME");
        assertThat(table.out())
                .containsPattern("alpha +0 9 \\* \\* \\* +UTC +- +tenant-report\\.alpha")
                .containsPattern(beta + " +30 7 \\* \\* 1-5 +Asia/Tokyo +locale=ja +tenant-report\\." + beta);

        CliRun json = cli("schedules", "list", REPORT, "--stage", stage, "--json");
        assertThat(json.code()).isZero();
        JsonNode listed = json(json.out());
        assertThat(listed.path("job").asText()).isEqualTo(REPORT);
        assertThat(listed.path("group").asText()).isEqualTo(EntityScheduleName.group(stage));
        JsonNode betaRow = null;
        for (JsonNode row : listed.path("schedules")) {
            if (row.path("entity").asText().equals(beta)) {
                betaRow = row;
            }
        }
        assertThat(betaRow).isNotNull();
        assertThat(betaRow.path("schedule").asText()).isEqualTo("30 7 * * 1-5");
        assertThat(betaRow.path("deployed").asText()).isEqualTo("cron(30 7 ? * MON-FRI *)");
        assertThat(betaRow.path("zone").asText()).isEqualTo("Asia/Tokyo");
        assertThat(betaRow.path("parameters").path("locale").asText()).isEqualTo("ja");
        assertThat(betaRow.path("name").asText()).isEqualTo("tenant-report." + beta);
    }

    @Test
    void delete_removesTheSchedule_andARepeatedDeleteSaysThereIsNone() {
        assertThat(cli("schedules", "put", REPORT, "gone", "--zone", "UTC", "--stage", stage)
                        .code())
                .isZero();

        CliRun deleted = cli("schedules", "delete", REPORT, "gone", "--stage", stage);
        assertThat(deleted.code()).isZero();
        assertThat(deleted.out().strip()).isEqualTo("DELETED tenant-report.gone");

        CliRun again = cli("schedules", "delete", REPORT, "gone", "--stage", stage, "-o", "json");
        assertThat(again.code()).isZero();
        assertThat(json(again.out()).path("change").asText()).isEqualTo("NONE");

        CliRun got = cli("schedules", "get", REPORT, "gone", "--stage", stage);
        assertThat(got.code()).isEqualTo(PunctualCli.RAN_NOTHING);
        assertThat(got.out()).startsWith("no schedule: tenant-report.gone is not in group");
    }

    @Test
    void aBadZone_isRefusedNamingTheOption_withTheClosestZone() {
        CliRun run = cli("schedules", "put", REPORT, "acme", "--zone", "Europe/Pari", "--stage", stage);

        assertThat(run.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().strip())
                .startsWith("punctual schedules put: --zone: \"Europe/Pari\" is not a known time zone")
                .contains("did you mean Europe/Paris?")
                .contains("; accepted: ")
                .doesNotContain("\n");
    }

    @Test
    void anUndeclaredParam_isRefusedNamingIt_andInJsonModeAsAnErrorObject() {
        CliRun run = cli(
                "schedules",
                "put",
                REPORT,
                "acme",
                "--zone",
                "UTC",
                "--param",
                "colour=red",
                "--stage",
                stage,
                "-o",
                "json");

        assertThat(run.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(run.err().strip()).startsWith("punctual schedules put: --param colour: not a parameter of");
        JsonNode error = json(run.out()).path("error");
        assertThat(error.path("command").asText()).isEqualTo("punctual schedules put");
        assertThat(error.path("field").asText()).isEqualTo("--param colour");
        assertThat(error.path("accepted").asText()).contains("locale");
        assertThat(error.path("exit_code").asInt()).isEqualTo(2);
    }

    @Test
    void aJobWithOneScheduleOfItsOwn_orAMistypedOne_isRefusedNamingJob() {
        CliRun own = cli("schedules", "list", DAILY, "--stage", stage);
        assertThat(own.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(own.err().strip())
                .isEqualTo("punctual schedules list: JOB: '" + DAILY + "' has one schedule of its own, not one per"
                        + " entity; accepted: a job declared with perEntity(...): " + REPORT);

        CliRun typo = cli("schedules", "get", "tenant-reprot", "acme", "--stage", stage);
        assertThat(typo.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(typo.err()).contains("JOB: 'tenant-reprot' is not a job", "(did you mean tenant-report?)");
    }

    @Test
    void aStageWithoutTheEntityOutputs_isRefusedSayingItHasNoEntityGroup_andWhatToDo() {
        CliRun run = cli("schedules", "list", REPORT, "--stage", plainStage);

        assertThat(run.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(run.err().strip())
                .startsWith("punctual schedules list: --stage: stage '" + plainStage
                        + "' has no entity schedule group (its stack Punctual-" + plainStage + " has no output "
                        + StageOutputs.ENTITY_SCHEDULE_GROUP + ")")
                .contains("accepted: a stage deployed with a catalog that has a per-entity job")
                .contains("cdk deploy");
    }

    @Test
    void schedulesAlone_isRefusedNamingTheSubcommands_andHelpListsThem() {
        CliRun alone = CliRun.of("schedules");
        assertThat(alone.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(alone.err().strip())
                .isEqualTo(
                        "punctual schedules: COMMAND: missing; accepted: put, get, list, delete, import (schedules --help)");

        CliRun help = CliRun.of("schedules", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("put", "get", "list", "delete");
    }

    @Test
    void withoutStage_isRefusedBeforeAnyCall() {
        CliRun run = cli("schedules", "list", REPORT);

        assertThat(run.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(run.err()).startsWith("punctual schedules list: --stage: required");
    }

    private static JsonNode json(String out) {
        try {
            return JSON.readTree(out);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + out, e);
        }
    }
}
