package dev.punctual.catchup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StartDeadlineTest {

    private static final Instant NINE = Instant.parse("2026-12-01T09:00:00Z");
    private static final StartDeadline TEN_MINUTES = new StartDeadline(Duration.ofMinutes(10));

    @Test
    void anOccurrence_mayStartUpToAndIncludingItsLatestStart() {
        assertThat(TEN_MINUTES.latestStart(NINE)).isEqualTo(NINE.plus(Duration.ofMinutes(10)));
        assertThat(TEN_MINUTES.judge(NINE, NINE.plus(Duration.ofMinutes(10)))).isEmpty();
        assertThat(TEN_MINUTES.judge(NINE, NINE.minusSeconds(5))).isEmpty();
    }

    @Test
    void oneMillisecondPastTheLatestStart_isTooLate_sayingByHowMuch() {
        assertThat(TEN_MINUTES.judge(NINE, NINE.plus(Duration.ofMinutes(10)).plusMillis(1)))
                .hasValueSatisfying(late -> {
                    assertThat(late.lateness()).isEqualTo(Duration.ofMillis(1));
                    assertThat(late.detail())
                            .isEqualTo("latest start 2026-12-01T09:10:00Z (startDeadline PT10M), 1 ms late");
                });
        assertThat(TEN_MINUTES.judge(NINE, NINE.plus(Duration.ofMinutes(95)).plusMillis(300)))
                .hasValueSatisfying(late -> assertThat(late.detail()).endsWith(", PT1H25M late"));
    }

    @Test
    void withoutADeadline_nothingIsEverTooLate() {
        assertThat(StartDeadline.judge(Optional.empty(), NINE, NINE.plus(Duration.ofDays(30))))
                .isEmpty();
    }

    private static JobDefinition.Builder job() {
        return JobDefinition.builder("send-by")
                .schedule("*/15 * * * *", "UTC")
                .job(services -> context -> JobResult.empty());
    }

    @Test
    void aJobsStartDeadline_mustBePositive_andAtMostTheSchedulersLongestEventAge() {
        assertThat(job().startDeadline(Duration.ofHours(24)).build().deadline()).contains(Duration.ofHours(24));
        assertThat(job().build().deadline()).isEmpty();
        assertThatThrownBy(() -> job().startDeadline(Duration.ZERO).build())
                .isInstanceOf(PunctualException.class)
                .hasMessage("job send-by: startDeadline 'PT0S' is not accepted; expected a positive duration of at"
                        + " most PT24H (the scheduler's longest event age), e.g. Duration.ofMinutes(10)");
        assertThatThrownBy(() ->
                        job().startDeadline(Duration.ofHours(24).plusSeconds(1)).build())
                .hasMessageContaining("startDeadline 'PT24H0.001S'".replace("0.001S", "1S"));
    }
}
