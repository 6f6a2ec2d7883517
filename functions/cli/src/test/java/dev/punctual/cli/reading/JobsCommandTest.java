package dev.punctual.cli.reading;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static dev.punctual.fixtures.FixtureCatalog.HOURLY;
import static dev.punctual.fixtures.FixtureCatalog.POOL;
import static dev.punctual.fixtures.FixtureCatalog.RECORDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.PunctualCli;
import dev.punctual.fixtures.FixtureCatalog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code jobs}: the catalog with next runs, no database, no AWS. */
class JobsCommandTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    private record Result(int code, String out, String err) {}

    private static Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), NOW, args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void jobs_json_listsEveryJob_withScheduleAsWrittenAndDeployed_flags_andNextRunsLocalUtcAndRelative()
            throws Exception {
        Result result = cli("jobs", "--output", "json", "--next", "2");

        assertThat(result.code()).as(result.err()).isZero();
        JsonNode jobs = new ObjectMapper().readTree(result.out()).path("jobs");
        assertThat(jobs.findValuesAsText("job")).contains(DAILY, DESTRUCTIVE, "missed-run-watchdog");
        JsonNode daily = jobs.get(0);
        assertThat(daily.path("job").asText()).as("the catalog's order").isEqualTo(DAILY);
        assertThat(daily.path("schedule").asText()).isEqualTo("0 9 * * *");
        assertThat(daily.path("deployed").asText()).isEqualTo("cron(0 9 * * ? *)");
        assertThat(daily.path("zone").asText()).isEqualTo("America/New_York");
        assertThat(daily.at("/next/0/local").asText()).isEqualTo("2026-12-01T09:00:00-05:00");
        assertThat(daily.at("/next/0/utc").asText()).isEqualTo("2026-12-01T14:00:00Z");
        assertThat(daily.at("/next/0/in").asText()).isEqualTo("in 23h 59m");
        assertThat(daily.at("/next/1/in").asText()).isEqualTo("in 1d 23h");
        JsonNode destructive = jobs.findParents("job").stream()
                .filter(j -> j.path("job").asText().equals(DESTRUCTIVE))
                .findFirst()
                .orElseThrow();
        assertThat(destructive.path("flags").toString())
                .contains("destructive")
                .as("decision 0041: it needs an approval where destructive jobs may run")
                .contains("approval-where-destructive");
        assertThat(destructive.path("pool").asText()).isEqualTo(POOL);
    }

    /** Decision 0049: an RRULE is deployed as its containing cron; its next runs are the rule's. */
    @Test
    void anRruleJob_isDeployedAsItsContainingCron_andItsNextRunsAreTheRules_everyOtherMonday() throws Exception {
        Result result = cli("jobs", FixtureCatalog.FORTNIGHTLY, "--output", "json", "--next", "2");

        assertThat(result.code()).as(result.err()).isZero();
        JsonNode job = new ObjectMapper().readTree(result.out()).path("jobs").get(0);
        assertThat(job.path("schedule").asText())
                .isEqualTo("DTSTART:20261207T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO");
        assertThat(job.path("deployed").asText()).isEqualTo("cron(0 9 ? * MON 2026-2199)");
        assertThat(job.at("/next/0/local").asText()).isEqualTo("2026-12-07T09:00:00+01:00");
        assertThat(job.at("/next/1/local").asText())
                .as("not the cron's 14 December")
                .isEqualTo("2026-12-21T09:00:00+01:00");
        assertThat(job.path("no_more_occurrences").asBoolean()).isFalse();
    }

    /** Past the calculator's last year (2199) no schedule has an occurrence: each row says so. */
    @Test
    void aJobWithNoOccurrenceLeft_saysNoMoreOccurrences_inTheTableAndTheJson() throws Exception {
        Clock after = Clock.fixed(Instant.parse("2200-01-02T00:00:00Z"), ZoneOffset.UTC);
        StringWriter out = new StringWriter();
        StringWriter json = new StringWriter();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), after, "jobs", DAILY);
        PunctualCli.execute(
                new PrintWriter(json), new PrintWriter(new StringWriter()), after, "jobs", DAILY, "--output", "json");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("no more occurrences");
        assertThat(new ObjectMapper()
                        .readTree(json.toString())
                        .at("/jobs/0/no_more_occurrences")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void jobs_json_showsEachJobsCatchUpAttemptsAndTables_theDefaultAsWellAsWhatWasWritten() throws Exception {
        JsonNode jobs = new ObjectMapper()
                .readTree(cli("jobs", "--output", "json").out())
                .path("jobs");

        JsonNode daily = jobs.get(0);
        assertThat(daily.at("/catch_up/mode").asText()).isEqualTo("oldest_first");
        assertThat(daily.at("/catch_up/max_occurrences").asInt()).isEqualTo(2);
        assertThat(daily.at("/catch_up/within").asText()).isEqualTo("PT72H");
        assertThat(daily.path("max_attempts").asInt()).isEqualTo(3);
        assertThat(daily.path("tables").toString()).isEqualTo("[\"" + RECORDS.name() + "\"]");
        JsonNode hourly = jobs.findParents("job").stream()
                .filter(j -> j.path("job").asText().equals(HOURLY))
                .findFirst()
                .orElseThrow();
        assertThat(hourly.at("/catch_up/summary").asText())
                .as(HOURLY + " names no policy: the hourly default reaches back 6 h")
                .isEqualTo("oldest first, up to 3 within 6h");
    }

    @Test
    void jobs_wideTable_showsCatchUpAttemptsAndTables() {
        String[] lines = cli("jobs", DAILY, "-o", "wide").out().strip().split("\n");

        assertThat(lines[0]).contains("CATCH-UP", "DEADLINE", "ATTEMPTS", "TABLES");
        assertThat(lines[1]).contains("oldest first, up to 2 within 3d", RECORDS.name());
    }

    @Test
    void jobs_wideTable_alignsColumns_andOneJobCanBeNamed() {
        Result result = cli("jobs", DAILY, "-o", "wide");

        assertThat(result.code()).isZero();
        String[] lines = result.out().strip().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("JOB").contains("SCHEDULE", "DEPLOYED", "NEXT (LOCAL)", "NEXT (UTC)", "IN");
        assertThat(lines[1].indexOf("cron(0 9 * * ? *)")).isEqualTo(lines[0].indexOf("DEPLOYED"));
        assertThat(lines[1]).endsWith("in 23h 59m");
    }

    @Test
    void jobs_anUnknownJob_exitsTwo_suggestingTheClosest() {
        Result result = cli("jobs", "nightly-sumary");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("did you mean " + DAILY + "?");
    }

    @Test
    void aJobsCalendarAndBlackouts_areListed_inTheWideTableAndTheJson() throws Exception {
        dev.punctual.time.HolidayCalendar holidays = dev.punctual.time.HolidayCalendar.of(
                "kr-public-holidays",
                java.time.LocalDate.parse("2026-01-01"),
                java.time.LocalDate.parse("2027-12-31"),
                java.util.Map.of(java.time.LocalDate.parse("2026-12-25"), "Christmas"));
        dev.punctual.job.JobDefinition settle = dev.punctual.job.JobDefinition.builder("settle")
                .schedule("0 9 * * *", "Asia/Seoul")
                .businessDaysOf(holidays)
                .blackout(dev.punctual.time.Blackout.daily(
                        java.time.LocalTime.of(23, 0), java.time.LocalTime.of(1, 0), "Asia/Seoul", "backup"))
                .job(services -> context -> dev.punctual.job.JobResult.empty())
                .build();
        StringWriter wide = new StringWriter();
        StringWriter json = new StringWriter();
        picocli.CommandLine table =
                new picocli.CommandLine(new JobsCommand(NOW, () -> dev.punctual.job.JobCatalog.of(settle)));
        table.setOut(new PrintWriter(wide));
        picocli.CommandLine asJson =
                new picocli.CommandLine(new JobsCommand(NOW, () -> dev.punctual.job.JobCatalog.of(settle)));
        asJson.setOut(new PrintWriter(json));

        assertThat(table.execute("-o", "wide")).isZero();
        assertThat(asJson.execute("-o", "json")).isZero();

        List<String> described = settle.exclusions().describe();
        assertThat(described).hasSize(2);
        assertThat(wide.toString()).contains("EXCLUSIONS", String.join("; ", described));
        assertThat(new ObjectMapper().readTree(json.toString()).at("/jobs/0/exclusions"))
                .extracting(JsonNode::asText)
                .containsExactlyElementsOf(described);
    }

    /** A per-entity job's schedules are its entities': it shows no deployed schedule, zone or next run of its own. */
    @Test
    void aPerEntityJob_isFlagged_andShowsNoDeployedScheduleZoneOrNextRunOfItsOwn() throws Exception {
        dev.punctual.job.JobDefinition tenantReport = dev.punctual.job.JobDefinition.builder("tenant-report")
                .schedule("0 9 * * *", "UTC")
                .perEntity(dev.punctual.job.EntityJob.parameters("locale"))
                .job(services -> context -> dev.punctual.job.JobResult.empty())
                .build();
        StringWriter out = new StringWriter();
        picocli.CommandLine line =
                new picocli.CommandLine(new JobsCommand(NOW, () -> dev.punctual.job.JobCatalog.of(tenantReport)));
        line.setOut(new PrintWriter(out));

        int code = line.execute("--output", "json");

        assertThat(code).isZero();
        JsonNode job = new ObjectMapper().readTree(out.toString()).at("/jobs/0");
        assertThat(job.path("job").asText()).isEqualTo("tenant-report");
        assertThat(job.path("schedule").asText())
                .as("each entity's default expression")
                .isEqualTo("0 9 * * *");
        assertThat(job.path("deployed").asText()).isEqualTo(JobsCommand.PER_ENTITY);
        assertThat(job.path("zone").asText()).isEqualTo(JobsCommand.PER_ENTITY);
        assertThat(job.path("next")).isEmpty();
        assertThat(job.path("flags").toString()).contains("per-entity");
    }
}
