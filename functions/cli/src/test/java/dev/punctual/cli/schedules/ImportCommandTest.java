package dev.punctual.cli.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.CliRun;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.testing.DynamoDbHarness;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code schedules import} end to end against moto's CloudFormation and EventBridge Scheduler API. */
class ImportCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCOUNT = DeployedStageFixture.ACCOUNT;
    private static final String REGION = DeployedStageFixture.REGION;
    private static final String REPORT = "tenant-report";
    private static final JobCatalog CATALOG = JobCatalog.of(JobDefinition.builder(REPORT)
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters("locale"))
            .job(services -> context -> JobResult.empty())
            .build());

    @TempDir
    Path dir;

    private AwsAccess aws;
    private String stage;

    @BeforeEach
    void deploy() {
        URI moto = DynamoDbHarness.backend().endpoint();
        aws = AwsAccess.loopback(
                REGION, Map.of(AwsAccess.CLOUDFORMATION, moto, AwsAccess.SCHEDULER, moto, AwsAccess.DYNAMODB, moto));
        stage = "imp-" + UUID.randomUUID().toString().substring(0, 6);
        EntityStage.deploy(aws, stage);
    }

    private CliRun cli(String... args) {
        CliContext context = new CliContext(CliRun.NOW, aws, InputStream.nullInputStream(), duration -> {
            throw new IllegalStateException("import never waits on the CLI's sleeper");
        });
        return EntityStage.cli(
                context,
                all -> {
                    all.put("schedules", () -> SchedulesCommand.commandLine(context, ignored -> CATALOG));
                    return all;
                },
                args);
    }

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void aCsvImportCreates_aSecondIsUnchanged_andAJsonLinesDryRunWithPrunePlansWithoutWriting() throws Exception {
        Path csv = write(
                "tenants.csv",
                "entity,zone,schedule,parameters\n"
                        + "acme,Europe/Paris,,\"{\"\"locale\"\":\"\"fr\"\"}\"\n"
                        + "beta,Asia/Tokyo,30 7 * * 1-5,\n");
        CliRun first = cli("schedules", "import", REPORT, csv.toString(), "--stage", stage);
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out())
                .contains("CREATE", "acme", "beta")
                .contains("done: 2 created, 0 updated, 0 unchanged, 0 deleted");
        assertThat(first.err()).contains("import [####################] 2/2");

        CliRun again = cli("schedules", "import", REPORT, csv.toString(), "--stage", stage, "-o", "json");
        assertThat(again.code()).isZero();
        JsonNode json = JSON.readTree(again.out());
        assertThat(json.at("/counts/UNCHANGED").asInt()).isEqualTo(2);
        assertThat(json.at("/counts/CREATE").asInt()).isZero();
        assertThat(json.get("changes")).isEmpty();

        Path jsonl = write(
                "tenants.jsonl",
                "{\"entity\":\"acme\",\"zone\":\"America/New_York\",\"parameters\":{\"locale\":\"fr\"}}\n"
                        + "{\"entity\":\"gamma\",\"zone\":\"UTC\"}\n");
        CliRun plan = cli(
                "schedules", "import", REPORT, jsonl.toString(), "--prune", "--dry-run", "--stage", stage, "--json");
        assertThat(plan.code()).as(plan.err()).isZero();
        JsonNode planned = JSON.readTree(plan.out());
        assertThat(planned.get("dry_run").asBoolean()).isTrue();
        assertThat(planned.get("changes").toString())
                .isEqualTo("[{\"change\":\"UPDATE\",\"entity\":\"acme\"},{\"change\":\"CREATE\",\"entity\":\"gamma\"},"
                        + "{\"change\":\"DELETE\",\"entity\":\"beta\"}]");
        CliRun list = cli("schedules", "list", REPORT, "--stage", stage);
        assertThat(list.out()).contains("Europe/Paris").contains("beta").doesNotContain("gamma");

        CliRun applied = cli("schedules", "import", REPORT, jsonl.toString(), "--prune", "--stage", stage);
        assertThat(applied.out()).contains("done: 1 created, 1 updated, 0 unchanged, 1 deleted");
        CliRun after = cli("schedules", "list", REPORT, "--stage", stage);
        assertThat(after.out()).contains("America/New_York", "gamma").doesNotContain("beta");
    }

    @Test
    void aBadFile_isRefusedWithEveryLineAndField_andNothingIsWritten() throws Exception {
        Path bad = write(
                "bad.jsonl",
                "{\"entity\":\"acme\",\"zone\":\"Europe/Pari\"}\n"
                        + "{\"entity\":\"beta\",\"zone\":\"UTC\",\"paramters\":{}}\n"
                        + "{\"entity\":\"ok\",\"zone\":\"UTC\"}\n"
                        + "{\"entity\":\"ok\",\"zone\":\"UTC\"}\n");
        CliRun refused = cli("schedules", "import", REPORT, bad.toString(), "--stage", stage);
        assertThat(refused.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err())
                .contains("3 bad line(s), nothing written")
                .contains("line 1: zone")
                .contains("line 2: field 'paramters'", "did you mean parameters?")
                .contains("line 4: entity: 'ok' appears on line 3 too");
        CliRun list = cli("schedules", "list", REPORT, "--stage", stage);
        assertThat(list.out()).contains("no schedules");

        CliRun format = cli("schedules", "import", REPORT, write("x.txt", "").toString(), "--stage", stage);
        assertThat(format.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(format.err()).contains("--format").contains("accepted: csv, jsonl");

        Path good = write("good.jsonl", "{\"entity\":\"acme\",\"zone\":\"UTC\"}\n");
        CliRun writers = cli("schedules", "import", REPORT, good.toString(), "--writers", "0", "--stage", stage);
        assertThat(writers.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(writers.err()).contains("--writers: 0; accepted: 1 to 64");
        assertThat(cli("schedules", "list", REPORT, "--stage", stage).out()).contains("no schedules");
    }
}
