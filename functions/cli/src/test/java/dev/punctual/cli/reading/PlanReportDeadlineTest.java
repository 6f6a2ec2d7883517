package dev.punctual.cli.reading;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code plan} of a job with a start deadline lists each occurrence's latest start (decision 0032). */
class PlanReportDeadlineTest {

    private static final Schedule SCHEDULE = Schedule.parse("0 18 * * *", "Asia/Seoul");
    private static final Instant FROM = Instant.parse("2026-12-01T00:00:00Z");

    private static PlanReport report(Optional<Duration> deadline) {
        return new PlanReport(
                SCHEDULE,
                FROM,
                OccurrenceCalculator.of(SCHEDULE).timeline(FROM, FROM.plus(Duration.ofDays(2)), 10),
                deadline,
                Optional.empty());
    }

    @Test
    void aJobWithADeadline_showsItAndEachOccurrencesLatestStart() throws Exception {
        PlanReport report = report(Optional.of(Duration.ofMinutes(10)));

        assertThat(report.text())
                .contains("deadline    PT10M after each occurrence; a later start is skipped (DEADLINE_PASSED)")
                .contains("2026-12-01T09:00:00Z", "latest start 2026-12-01T09:10:00Z, later: SKIP DEADLINE_PASSED");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.get("start_deadline").asText()).isEqualTo("PT10M");
        assertThat(json.at("/occurrences/1/latest_start").asText()).isEqualTo("2026-12-02T09:10:00Z");
    }

    @Test
    void aJobWithoutADeadline_isPlannedAsBefore() throws Exception {
        PlanReport report = report(Optional.empty());

        assertThat(report.text()).doesNotContain("deadline", "latest start");
        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.has("start_deadline")).isFalse();
        assertThat(json.at("/occurrences/0").has("latest_start")).isFalse();
    }
}
