package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.control.SkipCommand;
import dev.punctual.cli.reading.StatusCommand;
import dev.punctual.cli.running.InvocationCommands;
import dev.punctual.cli.schedules.EntityStage;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.testing.DynamoDbHarness;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The entity commands on an emulator ({@code --endpoint}), as a team uses them before it deploys: {@code
 * schedules put}, {@code get}, {@code list}, {@code import}, {@code run --entity}, {@code skip --entity},
 * {@code delete}, all against moto's EventBridge Scheduler API and DynamoDB, with no stack (nothing is
 * discovered: the stage's entity group and ledger are the emulator's). The entity's delivery runs the
 * real handler in this JVM on this test's catalog, as {@code run --endpoint} does for any job.
 */
class EntityEmulatorCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REPORT = "tenant-report";

    /** A per-entity job whose result names the entity and its locale: what the run got from the delivery. */
    private static final JobCatalog CATALOG = JobCatalog.of(JobDefinition.builder(REPORT)
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters("locale"))
            .job(services -> context -> {
                JobContext.Entity tenant = context.entity().orElseThrow();
                return JobResult.of(
                        "tenant",
                        tenant.id(),
                        "locale",
                        tenant.parameter("locale").orElse("-"));
            })
            .build());

    @TempDir
    Path dir;

    private String stage;
    private String endpoint;

    @BeforeEach
    void freshStage() {
        stage = "emu-" + UUID.randomUUID().toString().substring(0, 6);
        endpoint = DynamoDbHarness.backend().endpoint().toString();
    }

    /** The CLI as an operator types it, on this test's catalog, with no AWS endpoint of its own but the emulator. */
    private CliRun cli(String... args) {
        CliContext context = new CliContext(
                CliRun.NOW, AwsAccess.loopback("us-east-1", Map.of()), InputStream.nullInputStream(), duration -> {
                    throw new IllegalStateException("these commands never wait");
                });
        return EntityStage.cli(
                context,
                all -> {
                    all.put("schedules", () -> SchedulesCommand.commandLine(context, ignored -> CATALOG));
                    all.put(
                            "run",
                            () -> new InvocationCommands.Run(context, ignored -> CATALOG).runningInProcess(CATALOG));
                    all.put(
                            "replay",
                            () -> new InvocationCommands.Replay(context, ignored -> CATALOG).runningInProcess(CATALOG));
                    all.put("skip", () -> new SkipCommand.Skip(context, ignored -> CATALOG));
                    all.put("status", () -> new StatusCommand(context, ignored -> CATALOG));
                    return all;
                },
                args);
    }

    private String[] on(String... args) {
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = endpoint;
        all[args.length + 2] = "--stage";
        all[args.length + 3] = stage;
        return all;
    }

    @Test
    void putGetListImportRunDelete_allWithEndpoint() throws Exception {
        CliRun put = cli(on(
                "schedules",
                "put",
                REPORT,
                "acme",
                "--zone",
                "Europe/Paris",
                "--schedule",
                "0 7 * * *",
                "--param",
                "locale=fr"));
        assertThat(put.code()).as(put.err()).isZero();
        assertThat(put.out().strip())
                .isEqualTo("CREATED tenant-report.acme (group " + EntityScheduleName.group(stage) + ")");

        CliRun got = cli(on("schedules", "get", REPORT, "acme"));
        assertThat(got.code()).as(got.err()).isZero();
        assertThat(got.out()).contains("acme", "0 7 * * *", "Europe/Paris", "locale=fr", "tenant-report.acme");

        Path file = dir.resolve("tenants.jsonl");
        Files.writeString(
                file,
                "{\"entity\":\"acme\",\"schedule\":\"0 7 * * *\",\"zone\":\"Europe/Paris\",\"parameters\":{\"locale\":\"fr\"}}\n"
                        + "{\"entity\":\"beta\",\"zone\":\"Asia/Tokyo\",\"parameters\":{\"locale\":\"ja\"}}\n");
        CliRun imported = cli(on("schedules", "import", REPORT, file.toString()));
        assertThat(imported.code()).as(imported.err()).isZero();
        assertThat(imported.out()).contains("done: 1 created, 0 updated, 1 unchanged, 0 deleted");

        CliRun listed = cli(on("schedules", "list", REPORT, "-o", "json"));
        assertThat(listed.code()).as(listed.err()).isZero();
        JsonNode list = JSON.readTree(listed.out());
        assertThat(list.path("group").asText()).isEqualTo(EntityScheduleName.group(stage));
        assertThat(list.path("schedules").findValuesAsText("entity")).containsExactly("acme", "beta");

        // 07:00 in Paris on 30 November is 06:00 UTC: the entity's own occurrence, run through the handler.
        CliRun run = cli(on("run", REPORT, "--entity", "acme", "--at", "2026-11-30T06:00:00Z", "-o", "json"));
        assertThat(run.code()).as(run.err()).isZero();
        JsonNode ran = JSON.readTree(run.out());
        assertThat(ran.at("/occurrences/0/outcome").asText()).isEqualTo("PASS");
        assertThat(ran.at("/occurrences/0/occurrence").asText()).isEqualTo("2026-11-30T06:00:00Z");
        assertThat(ran.at("/occurrences/0/result/tenant").asText()).isEqualTo("acme");
        assertThat(ran.at("/occurrences/0/result/locale").asText()).isEqualTo("fr");

        // 09:00 UTC is the job's own default, not acme's: the handler refuses it as no occurrence of acme's.
        CliRun notAcmes = cli(on("run", REPORT, "--entity", "acme", "--at", "2026-11-30T09:00:00Z", "-o", "json"));
        assertThat(notAcmes.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(notAcmes.err()).contains("NOT_AN_OCCURRENCE", "for entity acme (cron(0 7 * * ? *) in Europe/Paris)");

        CliRun deleted = cli(on("schedules", "delete", REPORT, "acme"));
        assertThat(deleted.code()).as(deleted.err()).isZero();
        assertThat(deleted.out().strip()).isEqualTo("DELETED tenant-report.acme");

        CliRun gone = cli(on("run", REPORT, "--entity", "acme", "--at", "2026-11-30T06:00:00Z"));
        assertThat(gone.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(gone.err())
                .contains("--entity: entity 'acme' of job 'tenant-report' has no schedule")
                .contains("--endpoint URL creates one");

        CliRun afterDelete = cli(on("schedules", "list", REPORT));
        assertThat(afterDelete.out()).contains("beta").doesNotContain("acme");

        // beta's 09:00 in Tokyo is 00:00 UTC: two of its occurrences replayed, oldest first.
        CliRun replayed = cli(on(
                "replay",
                REPORT,
                "--entity",
                "beta",
                "--from",
                "2026-11-28T00:00:00Z",
                "--to",
                "2026-11-30T00:00:00Z",
                "-o",
                "json"));
        assertThat(replayed.code()).as(replayed.err()).isZero();
        JsonNode replay = JSON.readTree(replayed.out());
        assertThat(replay.at("/counts/pass").asInt()).isEqualTo(2);
        assertThat(replay.path("occurrences").findValuesAsText("occurrence"))
                .containsExactly("2026-11-28T00:00:00Z", "2026-11-29T00:00:00Z");
        assertThat(replay.at("/occurrences/0/result/locale").asText()).isEqualTo("ja");

        // A file without beta, with --prune: beta goes, with its tombstone on the emulator's ledger.
        Files.writeString(file, "{\"entity\":\"gamma\",\"zone\":\"UTC\"}\n");
        CliRun pruned = cli(on("schedules", "import", REPORT, file.toString(), "--prune"));
        assertThat(pruned.code()).as(pruned.err()).isZero();
        assertThat(pruned.out()).contains("done: 1 created, 0 updated, 0 unchanged, 1 deleted");
        CliRun left = cli(on("schedules", "list", REPORT));
        assertThat(left.out()).contains("gamma").doesNotContain("beta");
    }

    @Test
    void skipWithEntity_onTheEmulator_refusesATimeThatIsNotTheEntitysOccurrence() {
        assertThat(cli(on("schedules", "put", REPORT, "acme", "--zone", "Asia/Tokyo", "--schedule", "30 7 * * *"))
                        .code())
                .isZero();

        // 09:00 UTC is the job's default expression's, not acme's 07:30 in Tokyo (22:30 UTC).
        CliRun refused =
                cli(on("skip", REPORT, "--entity", "acme", "--at", "2026-12-01T09:00:00Z", "--reason", "not acme's"));
        assertThat(refused.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err())
                .contains(
                        "--at: '2026-12-01T09:00:00Z' is not an occurrence of entity 'acme' (30 7 * * * in Asia/Tokyo)");

        CliRun skipped =
                cli(on("skip", REPORT, "--entity", "acme", "--at", "2026-12-01T22:30:00Z", "--reason", "holiday"));
        assertThat(skipped.code()).as(skipped.err()).isZero();
    }

    @Test
    void statusWithEntity_onTheEmulator_showsTheEntitysNextOccurrences() throws Exception {
        assertThat(cli(on("schedules", "put", REPORT, "acme", "--zone", "Asia/Tokyo", "--schedule", "30 7 * * *"))
                        .code())
                .isZero();

        CliRun status = cli(on("status", REPORT, "--entity", "acme", "-o", "json"));

        assertThat(status.code()).as(status.err()).isZero();
        assertThat(status.out()).contains("2026-11-30T22:30:00Z");
    }

    @Test
    void
            anImportFile_withADuplicateColumn_anUnterminatedQuote_nonStringIds_aSpacedZone_orSchedulesThatNeverRun_isRefusedLineByLine()
                    throws Exception {
        Path csv = dir.resolve("tenants.csv");
        Files.writeString(csv, "entity,zone,zone\nacme,Europe/Paris,Asia/Tokyo\n");
        assertThat(offlineImport(csv).err())
                .contains("FILE: 1 bad line(s), nothing written: line 1: column 'zone': named twice (columns 2 and 3)");

        Files.writeString(
                csv,
                "entity,zone,parameters\n"
                        + "acme,Europe/Paris,\"{\"\"locale\"\":\"\"fr\"\"}\n"
                        + "beta, Europe/Paris,\n"
                        + "gamma,UTC,\n");
        CliRun lines = offlineImport(csv);
        assertThat(lines.err())
                .contains("FILE: 2 bad line(s), nothing written")
                .contains("line 2: column 3: an unterminated quote")
                .contains("line 3: zone: \" Europe/Paris\" has white space around it");

        Path jsonl = dir.resolve("tenants.jsonl");
        Files.writeString(
                jsonl,
                "{\"entity\":42,\"zone\":\"UTC\"}\n"
                        + "{\"entity\":{\"id\":\"acme\"},\"zone\":\"UTC\"}\n"
                        + "{\"entity\":\"beta\",\"zone\":\"UTC\",\"schedule\":\"at(2026-11-30T09:00:00)\"}\n"
                        + "{\"entity\":\"gamma\",\"zone\":\"UTC\",\"schedule\":\"0 9 30 2 *\"}\n"
                        + "{\"entity\":\"delta\",\"zone\":\"UTC\",\"entity\":\"epsilon\"}\n"
                        + "{\"entity\":\"zeta\",\"zone\":\"UTC\",\"schedule\":\"at(2026-11-30T15:00:00)\"}\n");
        CliRun json = offlineImport(jsonl);
        assertThat(json.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(json.err())
                .contains("FILE: 5 bad line(s), nothing written")
                .contains("line 1: entity: 42 is a number, not a string; accepted: a JSON string, e.g. \"acme\"")
                .contains("line 2: entity: {\"id\":\"acme\"} is an object, not a string")
                .contains("line 3: schedule: 'at(2026-11-30T09:00:00)' in UTC has no occurrence after now")
                .contains("line 4: schedule: '0 9 30 2 *'")
                .contains("line 5: not JSON (duplicate field name \"entity\"")
                .doesNotContain("line 6");
    }

    @Test
    void
            aPut_withASpacedZone_anAtInThePast_anExpressionThatNeverRuns_orAParameterTwice_isRefused_beforeAnythingIsWritten() {
        CliRun spaced = cli(on("schedules", "put", REPORT, "acme", "--zone", " Europe/Paris"));
        assertThat(spaced.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(spaced.err()).contains("--zone: \" Europe/Paris\" has white space around it");

        CliRun past =
                cli(on("schedules", "put", REPORT, "acme", "--zone", "UTC", "--schedule", "at(2026-11-30T09:00:00)"));
        assertThat(past.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(past.err())
                .contains("--schedule: 'at(2026-11-30T09:00:00)' in UTC has no occurrence after now"
                        + " (2026-11-30T14:00:02Z), so it would never run");

        CliRun never = cli(on("schedules", "put", REPORT, "acme", "--zone", "UTC", "--schedule", "0 9 30 2 *"));
        assertThat(never.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(never.err()).contains("--schedule: '0 9 30 2 *'");

        CliRun twice = cli(on(
                "schedules", "put", REPORT, "acme", "--zone", "UTC", "--param", "locale=fr", "--param", "locale=de"));
        assertThat(twice.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(twice.err()).contains("--param locale: given twice ('fr', then 'de'); accepted: each key once");

        CliRun list = cli(on("schedules", "list", REPORT));
        assertThat(list.out()).startsWith("no schedules:");
    }

    private CliRun offlineImport(Path file) {
        CliRun run = cli("schedules", "import", REPORT, file.toString(), "--dry-run");
        assertThat(run.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(run.out()).isEmpty();
        return run;
    }

    @Test
    void importDryRun_withoutStageOrEndpoint_checksTheFileOffline() throws Exception {
        Path file = dir.resolve("tenants.csv");
        Files.writeString(file, "entity,zone\nacme,Europe/Paris\nbeta,Asia/Tokyo\n");

        CliRun plan = cli("schedules", "import", REPORT, file.toString(), "--dry-run");
        assertThat(plan.code()).as(plan.err()).isZero();
        assertThat(plan.out())
                .contains("CREATE", "acme", "beta")
                .contains("plan (offline dry run, nothing read or written): 2 line(s) valid");

        CliRun json = cli("schedules", "import", REPORT, file.toString(), "--dry-run", "-o", "json");
        JsonNode read = JSON.readTree(json.out());
        assertThat(read.path("offline").asBoolean()).isTrue();
        assertThat(read.path("dry_run").asBoolean()).isTrue();
        assertThat(read.at("/counts/CREATE").asInt()).isEqualTo(2);

        Files.writeString(file, "entity,zone\nacme,Europe/Pariss\n");
        CliRun bad = cli("schedules", "import", REPORT, file.toString(), "--dry-run");
        assertThat(bad.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(bad.err()).contains("line 2: zone");

        CliRun noStage = cli("schedules", "import", REPORT, file.toString());
        assertThat(noStage.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(noStage.err()).contains("--stage: required against AWS");
    }
}
