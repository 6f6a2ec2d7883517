package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Trigger;
import dev.punctual.outcome.OccurrenceOutcome;
import dev.punctual.outcome.Reason;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The outcome line is the report's: what they share is taken from the report, and only by verdict. */
class OccurrenceReportTest {

    private static final Instant AT = Instant.parse("2026-11-30T14:00:00Z");

    private static OccurrenceReport report(Reason reason, String detail, Map<String, Object> result) {
        return new OccurrenceReport(
                "nightly",
                AT,
                AT.atZone(ZoneId.of("America/New_York")),
                Trigger.SCHEDULED,
                reason,
                2,
                7L,
                41,
                detail,
                result,
                Optional.empty(),
                null);
    }

    @Test
    void aPass_carriesTheReportsFieldsAndItsResult_withNoErrorOrDetail() {
        OccurrenceOutcome line =
                report(Reason.OK, null, Map.of("members", 3)).outcome("dev", 1, 4, Duration.ofMillis(1500));

        assertThat(line.stage()).isEqualTo("dev");
        assertThat(line.job()).isEqualTo("nightly");
        assertThat(line.occurrence()).isEqualTo(AT);
        assertThat(line.occurrenceLocal()).isEqualTo(AT.atZone(ZoneId.of("America/New_York")));
        assertThat(line.trigger()).isEqualTo("SCHEDULED");
        assertThat(line.reason()).isEqualTo(Reason.OK);
        assertThat(line.attempt()).isEqualTo(2);
        assertThat(line.fence()).isEqualTo(7L);
        assertThat(line.durationMs()).isEqualTo(41);
        assertThat(line.latenessMs()).isEqualTo(1500);
        assertThat(line.catchUpCount()).isEqualTo(1);
        assertThat(line.missedCount()).isEqualTo(4);
        assertThat(line.result()).containsExactly(Map.entry("members", 3));
        assertThat(line.error()).isNull();
        assertThat(line.detail()).isNull();
    }

    @Test
    void aFailure_putsTheReportsDetailUnderError() {
        OccurrenceOutcome line = report(Reason.JOB_ERROR, "IllegalStateException: boom", Map.of())
                .outcome("dev", 0, 0, Duration.ZERO);

        assertThat(line.error()).isEqualTo("IllegalStateException: boom");
        assertThat(line.detail()).isNull();
        assertThat(line.result()).isEmpty();
    }

    @Test
    void aSkip_keepsItsDetail_andAnEarlyStartCountsAsNoLateness() {
        OccurrenceOutcome line = report(Reason.MAINTENANCE, "loading synthetic data", Map.of("ignored", true))
                .outcome("dev", 0, 0, Duration.ofSeconds(-3));

        assertThat(line.detail()).isEqualTo("loading synthetic data");
        assertThat(line.error()).isNull();
        assertThat(line.result()).as("a skip ran nothing, so it has no result").isEmpty();
        assertThat(line.latenessMs()).isZero();
    }
}
