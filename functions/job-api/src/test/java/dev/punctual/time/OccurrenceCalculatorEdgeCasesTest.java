package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class OccurrenceCalculatorEdgeCasesTest {

    private static OccurrenceCalculator calculator(String expression, String zone) {
        return OccurrenceCalculator.of(Schedule.parse(expression, zone));
    }

    private static Instant at(String text) {
        return Instant.parse(text);
    }

    @Test
    void february30_neverExists_nextAndPreviousAreEmpty() {
        var calculator = calculator("0 0 30 2 *", "UTC");
        assertThat(calculator.next(at("2027-01-01T00:00:00Z"))).isEmpty();
        assertThat(calculator.previous(at("2027-01-01T00:00:00Z"))).isEmpty();
    }

    @Test
    void february29_runsOnlyInLeapYears() {
        var calculator = calculator("0 0 29 2 *", "UTC");
        assertThat(calculator.next(at("2027-03-01T00:00:00Z"))).contains(at("2028-02-29T00:00:00Z"));
        assertThat(calculator.previous(at("2027-03-01T00:00:00Z"))).contains(at("2024-02-29T00:00:00Z"));
        assertThat(calculator.next(at("2096-03-01T00:00:00Z"))).contains(at("2104-02-29T00:00:00Z"));
    }

    @Test
    void yearField_atTheEndOfTheEventBridgeRange_isFoundAndThenNothing() {
        var calculator = calculator("cron(0 0 1 1 ? 2199)", "UTC");
        assertThat(calculator.next(at("2027-01-01T00:00:00Z"))).contains(at("2199-01-01T00:00:00Z"));
        assertThat(calculator.next(at("2199-01-01T00:00:00Z"))).isEmpty();
    }

    @Test
    void yearList_searchedBackwardsAcrossYears_findsTheLastListedYear() {
        var calculator = calculator("cron(59 23 31 12 ? 2100,2150)", "UTC");
        assertThat(calculator.previous(at("2199-06-01T00:00:00Z"))).contains(at("2150-12-31T23:59:00Z"));
        assertThat(calculator.previous(at("2150-12-31T23:59:00Z"))).contains(at("2100-12-31T23:59:00Z"));
    }

    @Test
    void instantsWithFractionsOfASecond_nextIsStrictlyAfterAndPreviousStrictlyBefore() {
        var calculator = calculator("* * * * *", "UTC");
        Instant half = at("2027-01-01T10:00:00.500Z");
        assertThat(calculator.next(half)).contains(at("2027-01-01T10:01:00Z"));
        assertThat(calculator.previous(half)).contains(at("2027-01-01T10:00:00Z"));
        assertThat(calculator.isOccurrence(at("2027-01-01T10:00:00Z"))).isTrue();
        assertThat(calculator.isOccurrence(half)).isFalse();
    }

    @Test
    void rate_countsWholePeriodsFromTheEpoch() {
        var calculator = calculator("rate(90 minutes)", "Europe/Berlin");
        assertThat(calculator.next(at("2027-01-01T00:00:00Z"))).contains(at("2027-01-01T01:30:00Z"));
        assertThat(calculator.previous(at("2027-01-01T00:00:00Z"))).contains(at("2026-12-31T22:30:00Z"));
        assertThat(calculator.count(at("2027-01-01T00:00:00Z"), at("2027-01-02T00:00:00Z")))
                .isEqualTo(15);
        assertThat(calculator.previous(at("1970-01-01T00:00:00Z"))).isEmpty();
    }

    @Test
    void at_runsOnceAtItsLocalTime_andInARepeatedHourAtTheEarlierInstant() {
        var once = calculator("at(2027-06-01T09:30:00)", "Europe/Berlin");
        assertThat(once.next(at("2027-01-01T00:00:00Z"))).contains(at("2027-06-01T07:30:00Z"));
        assertThat(once.next(at("2027-06-01T07:30:00Z"))).isEmpty();
        assertThat(once.count(at("2027-01-01T00:00:00Z"), at("2028-01-01T00:00:00Z")))
                .isEqualTo(1);
        var repeated = calculator("at(2027-10-31T02:30:00)", "Europe/Berlin");
        assertThat(repeated.next(at("2027-01-01T00:00:00Z"))).contains(at("2027-10-31T00:30:00Z"));
    }

    @Test
    void between_moreOccurrencesThanTheLimit_isRefusedRatherThanTruncated() {
        var calculator = calculator("* * * * *", "UTC");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> calculator.between(at("2027-01-01T00:00:00Z"), at("2027-01-02T00:00:00Z"), 100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than 100");
    }
}
