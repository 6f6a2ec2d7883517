package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.reading.JobsCommand;
import dev.punctual.cli.reading.StatusCommand;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code status} and {@code jobs} show freshness (decision 0042) on the emulator: the last success the
 * completion noted, its age against the job's bound, STALE when older; the bound in {@code jobs}.
 */
class StaleStatusTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    static final JobCatalog CATALOG = JobCatalog.of(
            JobDefinition.builder("report")
                    .schedule("0 9 * * *", "America/New_York")
                    .freshWithin(Duration.ofHours(26))
                    .job(s -> ctx -> JobResult.empty())
                    .build(),
            JobDefinition.builder("sync")
                    .schedule("0 * * * *", "UTC")
                    .freshWithin(Duration.ofHours(2))
                    .job(s -> ctx -> JobResult.empty())
                    .build(),
            JobDefinition.builder("digest")
                    .schedule("0 9 * * *", "America/New_York")
                    .job(s -> ctx -> JobResult.empty())
                    .build(),
            JobDefinition.builder("quiet")
                    .schedule("0 9 * * *", "America/New_York")
                    .notWatchedForFreshness()
                    .job(s -> ctx -> JobResult.empty())
                    .build());

    private String ledgerTable;
    private String stage;

    @BeforeEach
    void freshStage() {
        ledgerTable = TestTables.uniqueName(StaleStatusTest.class, "ledger");
        stage = "t" + UUID.randomUUID().toString().substring(0, 6);
        LedgerTable.createIfMissing(DynamoDbHarness.client(), ledgerTable);
    }

    /** One success of {@code job}'s occurrence, completed at {@code finishedAt} on the emulator's ledger. */
    private void succeeded(String job, Instant occurrence, Instant finishedAt) {
        RunLedger ledger = DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                ledgerTable,
                Clock.fixed(finishedAt, ZoneOffset.UTC),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {});
        ClaimResult claim = ledger.claim(
                ClaimRequest.scheduled(new RunKey(job, occurrence), 1, 3, finishedAt.plus(Duration.ofMinutes(5))));
        assertThat(claim).isInstanceOf(ClaimResult.Claimed.class);
        ledger.complete(((ClaimResult.Claimed) claim).claim(), new Outcome.Succeeded(null));
    }

    @Test
    void status_json_givesEachJobsLastSuccessAndBound_andMarksTheOneOlderThanItsBoundStale() throws Exception {
        succeeded("report", Instant.parse("2026-11-28T14:00:00Z"), Instant.parse("2026-11-28T14:00:30Z"));
        succeeded("sync", Instant.parse("2026-11-30T13:00:00Z"), Instant.parse("2026-11-30T13:00:40Z"));

        JsonNode jobs = JSON.readTree(cli("status").out()).path("jobs");

        JsonNode report = byJob(jobs, "report");
        assertThat(report.path("last_success").asText()).isEqualTo("2026-11-28T14:00:30Z");
        assertThat(report.path("fresh_within").asText()).isEqualTo("PT26H");
        assertThat(report.path("stale").asBoolean()).isTrue();
        JsonNode sync = byJob(jobs, "sync");
        assertThat(sync.path("stale").isBoolean()).isTrue();
        assertThat(sync.path("stale").asBoolean()).isFalse();
        JsonNode digest = byJob(jobs, "digest");
        assertThat(digest.path("fresh_within").isNull())
                .as("no bound of its own, and the test's stage sets no default")
                .isTrue();
        assertThat(digest.path("stale").isNull()).isTrue();
        assertThat(byJob(jobs, "quiet").path("last_success").isNull()).isTrue();
    }

    @Test
    void status_table_marksTheStaleJob_inLastAndLastSuccess_andNamesItBelow() {
        succeeded("report", Instant.parse("2026-11-28T14:00:00Z"), Instant.parse("2026-11-28T14:00:30Z"));
        succeeded("sync", Instant.parse("2026-11-30T13:00:00Z"), Instant.parse("2026-11-30T13:00:40Z"));

        String wide = cli("status", "--output", "wide").out();

        assertThat(wide).contains("LAST SUCCESS");
        assertThat(line(wide, "report ")).contains("STALE: 1d 23h ago (fresh within 1d 2h)");
        assertThat(line(wide, "sync "))
                .contains("59m 22s ago (fresh within 2h 0m)")
                .doesNotContain("STALE");
        assertThat(wide)
                .contains("report: last success 1d 23h ago (fresh within 1d 2h): STALE, no success within its bound"
                        + " (docs/runbook.md#stale)")
                .doesNotContain("sync: last success");
        assertThat(line(cli("status", "--output", "table").out(), "report "))
                .as("the narrow table too")
                .contains("STALE");
    }

    @Test
    void status_ofOneJob_saysItsLastSuccessAndBound_inWords() {
        succeeded("sync", Instant.parse("2026-11-30T13:00:00Z"), Instant.parse("2026-11-30T13:00:40Z"));

        assertThat(cli("status", "sync", "--output", "table").out())
                .contains("sync: last success 59m 22s ago (fresh within 2h 0m)");
        assertThat(cli("status", "report", "--output", "table").out())
                .as("never succeeded: its staleness counts from the go-live only the watchdog knows")
                .contains("report: last success never (fresh within 1d 2h)");
    }

    @Test
    void jobs_showsEachJobsBound_itsOwn_theStagesDefault_orNone() throws Exception {
        JsonNode jobs = JSON.readTree(cli("jobs").out()).path("jobs");

        assertThat(byJob(jobs, "report").path("fresh_within").asText()).isEqualTo("PT26H");
        assertThat(byJob(jobs, "digest").path("fresh_within").asText()).isEqualTo("stage default");
        assertThat(byJob(jobs, "quiet").path("fresh_within").isNull()).isTrue();
        String wide = cli("jobs", "--output", "wide").out();
        assertThat(wide).contains("FRESH WITHIN");
        assertThat(line(wide, "report ")).contains("1d 2h");
    }

    private static JsonNode byJob(JsonNode jobs, String job) {
        for (JsonNode j : jobs) {
            if (job.equals(j.path("job").asText())) {
                return j;
            }
        }
        throw new AssertionError("no job " + job + " in " + jobs);
    }

    private static String line(String table, String start) {
        return table.lines()
                .filter(l -> l.startsWith(start))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line starting " + start + " in\n" + table));
    }

    private record CliRun(int code, String out, String err) {}

    /** The CLI with this test's catalog, on the emulator, JSON unless told. */
    private CliRun cli(String... args) {
        CliContext context = CliContext.withClock(NOW);
        List<String> all = new ArrayList<>(List.of(args));
        if (!args[0].equals("jobs")) {
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
                    commands.put("status", () -> new StatusCommand(context, ignored -> CATALOG));
                    commands.put("jobs", () -> new JobsCommand(NOW, () -> CATALOG));
                    return commands;
                },
                all.toArray(String[]::new));
        assertThat(code).as(err.toString()).isZero();
        return new CliRun(code, out.toString(), err.toString());
    }
}
