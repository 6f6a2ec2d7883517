package dev.punctual.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SkewToleranceTest {

    @Test
    void environment_roundTrip_givesTheSameTolerance() {
        SkewTolerance fiveSeconds = new SkewTolerance(Duration.ofSeconds(5));

        assertThat(fiveSeconds.toEnvironment()).containsExactly(Map.entry(SkewTolerance.ENV, "5000"));
        assertThat(SkewTolerance.fromEnvironment(fiveSeconds.toEnvironment())).isEqualTo(fiveSeconds);
    }

    @Test
    void fromEnvironment_withoutTheVariable_isTwoSeconds() {
        assertThat(SkewTolerance.fromEnvironment(Map.of()).value()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void fromEnvironment_outOfRangeOrNotANumber_isRefusedNamingTheVariableAndTheRange() {
        for (String bad : new String[] {"60001", "-1", "2s"}) {
            assertThatThrownBy(() -> SkewTolerance.fromEnvironment(Map.of(SkewTolerance.ENV, bad)))
                    .as(bad)
                    .isInstanceOf(StageConfigException.class)
                    .hasMessage("PUNCTUAL_SKEW_TOLERANCE_MS: '" + bad
                            + "' is not accepted; expected a whole number of milliseconds from 0 to 60000");
        }
    }

    @Test
    void aToleranceAboveOneMinute_isRefusedNamingTheFieldAndTheRange() {
        assertThatThrownBy(() -> new SkewTolerance(Duration.ofSeconds(61)))
                .isInstanceOf(StageConfigException.class)
                .hasMessage("skewTolerance: 'PT1M1S' is not accepted; expected between PT0S and PT1M (0 to 60 seconds)")
                .satisfies(e -> assertThat(((StageConfigException) e).field()).isEqualTo("skewTolerance"));
        assertThat(new SkewTolerance(Duration.ZERO).value()).isZero();
        assertThat(new SkewTolerance(SkewTolerance.MAX).value()).isEqualTo(Duration.ofMinutes(1));
    }
}
