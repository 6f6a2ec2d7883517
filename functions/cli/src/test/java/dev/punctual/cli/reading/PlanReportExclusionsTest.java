package dev.punctual.cli.reading;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.time.Blackout;
import dev.punctual.time.CalendarRule;
import dev.punctual.time.Exclusions;
import dev.punctual.time.HolidayCalendar;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code plan --job} lists, per occurrence, whether it runs and, if not, why (issue 22, 6; decision 0034). */
class PlanReportExclusionsTest {

    private static final Schedule SCHEDULE = Schedule.parse("0 23 * * *", "Asia/Seoul");
    private static final HolidayCalendar CALENDAR = HolidayCalendar.of(
            "kr-test",
            LocalDate.of(2026, 1, 1),
            LocalDate.of(2027, 1, 2),
            Map.of(LocalDate.of(2027, 1, 1), "New Year's Day"));
    private static final Exclusions EXCLUSIONS = new Exclusions(List.of(
            new CalendarRule(CALENDAR, true, ZoneId.of("Asia/Seoul")),
            Blackout.daily(LocalTime.of(22, 30), LocalTime.of(23, 30), "Asia/Seoul", "backup")
                    .on(java.time.DayOfWeek.THURSDAY)));
    private static final Instant FROM = Instant.parse("2026-12-30T00:00:00Z");

    private static PlanReport report() {
        return new PlanReport(
                SCHEDULE,
                FROM,
                OccurrenceCalculator.of(SCHEDULE).timeline(FROM, FROM.plus(Duration.ofDays(6)), 10),
                Optional.empty(),
                Optional.of(new PlanReport.JobRules(EXCLUSIONS, CatchUpPolicy.none())));
    }

    @Test
    void eachOccurrence_saysWhetherItRuns_andWhyNot_byTheRuntimesRule() throws Exception {
        JsonNode json = new ObjectMapper().readTree(report().json());

        // Wed 12-30 runs, Thu 12-31 blackout, Fri 01-01 holiday, Sat, Sun weekend, Mon 01-04 past the range.
        assertThat(json.get("occurrences").findValuesAsText("skip_reason"))
                .containsExactly("BLACKOUT", "CALENDAR", "CALENDAR", "CALENDAR", "CALENDAR_ENDED");
        assertThat(json.at("/occurrences/0/runs").asBoolean()).isTrue();
        assertThat(json.at("/occurrences/2/skip_why").asText())
                .isEqualTo("2027-01-01 is New Year's Day in calendar kr-test");
        assertThat(json.get("exclusions")).hasSize(2);
        assertThat(json.get("after_exclusion").asText()).contains("never caught up", "none");
    }

    @Test
    void theText_hasARunsColumn_theExclusions_andWhatHappensAfterwards() {
        String text = report().text();

        assertThat(text)
                .contains("excludes    business days of calendar kr-test (2026-01-01 .. 2027-01-02, 1 dates)")
                .contains("excludes    blackout on Thu 22:30-23:30 Asia/Seoul: backup")
                .contains("after       an excluded occurrence is skipped, not missed, and never caught up")
                .containsPattern("UTC +LOCAL +RUNS +NOTE")
                .containsPattern("2026-12-30T14:00:00Z +2026-12-30T23:00:00\\+09:00 +runs")
                .containsPattern("2026-12-31T14:00:00Z .* SKIP BLACKOUT +blackout on Thu")
                .containsPattern("2027-01-04T14:00:00Z .* SKIP CALENDAR_ENDED +calendar kr-test covers");
    }

    @Test
    void aPlanOfAnExpression_hasNoRunsColumn() {
        String text = new PlanReport(
                        SCHEDULE, FROM, OccurrenceCalculator.of(SCHEDULE).timeline(FROM, FROM.plusSeconds(86_400), 3))
                .text();

        assertThat(text).doesNotContain("RUNS").containsPattern("UTC +LOCAL +NOTE");
    }
}
