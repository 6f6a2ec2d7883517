package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The spread's window and its stable per-subject offset (decision 0030). */
class SpreadTest {

    @Test
    void theOffset_isPinned_soEveryJvmAndReleaseDeploysTheSameOne() {
        Spread ten = new Spread(Duration.ofMinutes(10));

        // SHA-256 of the length-prefixed UTF-8 parts, first 8 bytes mod the minutes: golden values (also
        // what Python's hashlib gives), changed only with a decision.
        assertThat(ten.offsetMinutes("tenant-report", "acme")).isEqualTo(GOLDEN_ACME);
        assertThat(ten.offsetMinutes("tenant-report", "beta")).isEqualTo(GOLDEN_BETA);
        assertThat(new Spread(Duration.ofHours(1)).offsetMinutes("tenant-report", "acme"))
                .isEqualTo(GOLDEN_ACME_60);
    }

    private static final int GOLDEN_ACME = 9;
    private static final int GOLDEN_BETA = 7;
    private static final int GOLDEN_ACME_60 = 19;

    @Test
    void thePartsAreLengthPrefixed_soMovingACharacterBetweenThemIsAnotherSubject() {
        Spread sixty = new Spread(Duration.ofHours(1));

        assertThat(sixty.offsetMinutes("ab", "c")).isNotEqualTo(sixty.offsetMinutes("a", "bc"));
    }

    @Test
    void tenThousandEntities_spreadEvenlyOverTheWindow() {
        Spread ten = new Spread(Duration.ofMinutes(10));
        int[] perMinute = new int[10];
        for (int i = 0; i < 10_000; i++) {
            perMinute[ten.offsetMinutes("tenant-report", "tenant-" + i)]++;
        }

        assertThat(java.util.Arrays.stream(perMinute).boxed().toList())
                .allSatisfy(count -> assertThat(count).isBetween(880, 1120));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT1M", "PT61M", "PT2H", "PT90S", "PT-10M", "PT0S"})
    void aWindowThatIsNotTwoToSixtyWholeMinutes_isRefusedNamingSpreadOver(String window) {
        assertThatThrownBy(() -> new Spread(Duration.parse(window)))
                .isInstanceOf(ScheduleExpressionException.class)
                .hasMessageStartingWith("spreadOver: \"" + Duration.parse(window) + "\"")
                .hasMessageEndingWith("accepted: whole minutes from 2 to 60, e.g. Duration.ofMinutes(10)");
    }
}
