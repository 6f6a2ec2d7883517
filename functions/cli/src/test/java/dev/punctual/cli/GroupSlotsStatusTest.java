package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.control.PauseCommand;
import dev.punctual.cli.reading.StatusCommand;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
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
 * A lock group of capacity N (decision 0051) as an operator sees it on the emulator: {@code status} shows
 * the slots in use and who holds them (JSON and table), and {@code pause --group} refuses a claim on every
 * slot until {@code resume}.
 */
class GroupSlotsStatusTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    static final JobCatalog CATALOG = JobCatalog.of(
                    JobDefinition.builder("morning-report")
                            .schedule("0 9 * * *", "America/New_York")
                            .lockGroup("reports")
                            .job(s -> ctx -> JobResult.empty())
                            .build(),
                    JobDefinition.builder("weekly-report")
                            .schedule("0 9 * * *", "America/New_York")
                            .lockGroup("reports")
                            .job(s -> ctx -> JobResult.empty())
                            .build(),
                    JobDefinition.builder("audit-report")
                            .schedule("0 9 * * *", "America/New_York")
                            .lockGroup("reports")
                            .job(s -> ctx -> JobResult.empty())
                            .build())
            .withGroupCapacity("reports", 3);

    private static final Instant OCCURRENCE = Instant.parse("2026-11-30T14:00:00Z");

    private String ledgerTable;
    private String stage;
    private RunLedger ledger;

    @BeforeEach
    void freshStage() {
        ledgerTable = TestTables.uniqueName(GroupSlotsStatusTest.class, "ledger");
        stage = "t" + UUID.randomUUID().toString().substring(0, 6);
        LedgerTable.createIfMissing(DynamoDbHarness.client(), ledgerTable);
        ledger = DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                ledgerTable,
                Clock.fixed(NOW, ZoneOffset.UTC),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {});
    }

    private ClaimResult claim(String job) {
        return ledger.claim(ClaimRequest.scheduled(new RunKey(job, OCCURRENCE), 1, 3, NOW.plus(Duration.ofMinutes(5)))
                .inGroup("reports")
                .withGroupCapacity(CATALOG.groupCapacity("reports")));
    }

    @Test
    void status_showsTheSlotsInUse_andWhoHoldsEach_inJsonAndInTheTable() throws Exception {
        assertThat(claim("morning-report")).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(claim("weekly-report")).isInstanceOf(ClaimResult.Claimed.class);

        JsonNode jobs = JSON.readTree(cli("status").out()).path("jobs");

        JsonNode daily = byJob(jobs, "morning-report");
        JsonNode slots = daily.path("slots");
        assertThat(slots.path("capacity").asInt()).isEqualTo(3);
        assertThat(slots.path("in_use").asInt()).isEqualTo(2);
        List<String> holders = new ArrayList<>();
        slots.path("held").forEach(h -> holders.add(h.path("holder").asText()));
        assertThat(holders).containsExactlyInAnyOrder("morning-report", "weekly-report");
        assertThat(daily.path("lease").path("holder").asText()).isEqualTo("morning-report");
        assertThat(byJob(jobs, "audit-report").path("lease").isNull())
                .as("its own run holds no slot")
                .isTrue();
        String wide = cli("status", "--output", "wide").out();
        assertThat(line(wide, "audit-report ")).contains("2 of 3 slots: JOB by ", "morning-report", "weekly-report");
    }

    @Test
    void pauseOfTheGroup_refusesAClaimOnEverySlot_untilItsResume() {
        assertThat(cli("pause", "--group", "reports", "--reason", "supplier outage", "--by", "alice")
                        .code())
                .isZero();

        for (String job : List.of("morning-report", "weekly-report", "audit-report")) {
            assertThat(claim(job)).as(job).isInstanceOf(ClaimResult.Paused.class);
        }

        assertThat(cli("resume", "--group", "reports", "--catch-up").code()).isZero();
        for (String job : List.of("morning-report", "weekly-report", "audit-report")) {
            assertThat(claim(job)).as(job).isInstanceOf(ClaimResult.Claimed.class);
        }
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
        CliContext context = CliContext.withClock(Clock.fixed(NOW, ZoneOffset.UTC));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "--endpoint",
                DynamoDbHarness.backend().endpoint().toString(),
                "--ledger-table",
                ledgerTable,
                "--stage",
                stage));
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
                    commands.put("pause", () -> new PauseCommand.Pause(context, ignored -> CATALOG));
                    commands.put("resume", () -> new PauseCommand.Resume(context, ignored -> CATALOG));
                    return commands;
                },
                all.toArray(String[]::new));
        assertThat(code).as(err.toString()).isZero();
        return new CliRun(code, out.toString(), err.toString());
    }
}
