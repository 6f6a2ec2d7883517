package dev.punctual.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What {@code jobs}, {@code plan} and the catalog's refusals show of a policy: durations as people write them. */
class CatchUpPolicyDescriptionTest {

    @Test
    void anAgeOfDaysAndHours_readsAsTheyAreWritten_neverAsIsoHours() {
        assertThat(CatchUpPolicy.oldestFirst(3, Duration.ofHours(507)).describe())
                .isEqualTo("oldest first, up to 3 within 21d 3h");
    }

    @Test
    void everyUnitThatIsNotZero_isShown_exactly() {
        assertThat(CatchUpPolicy.readable(Duration.ofMinutes(90))).isEqualTo("1h 30m");
        assertThat(CatchUpPolicy.readable(Duration.ofDays(2))).isEqualTo("2d");
        assertThat(CatchUpPolicy.readable(Duration.ofSeconds(86_400 + 61))).isEqualTo("1d 1m 1s");
        assertThat(CatchUpPolicy.readable(Duration.ZERO)).isEqualTo("0s");
    }

    @Test
    void latestOnlyAndNone_readTheirWay() {
        assertThat(CatchUpPolicy.latestOnly(Duration.ofHours(1)).describe()).isEqualTo("latest only, within 1h");
        assertThat(CatchUpPolicy.none().describe()).isEqualTo("none");
    }
}
