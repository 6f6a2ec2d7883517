package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cadences from the occurrence calculator; no synthesis, so these run in milliseconds. */
class CadenceTest {

    private static final Instant FROM = Synth.CADENCE_FROM;

    private static Cadence cadence(String expression, String zone) {
        return Cadence.of(Schedule.parse(expression, zone), FROM);
    }

    @Test
    void dailyLocalTime_inAZoneWithDaylightSaving_hasA25HourLongestGap() {
        assertThat(cadence("0 9 * * *", "America/New_York").longestGap()).contains(Duration.ofHours(25));
    }

    @Test
    void dailyLocalTime_inAZoneWithoutDaylightSaving_hasA24HourLongestGap() {
        assertThat(cadence("0 18 * * *", "Asia/Seoul").longestGap()).contains(Duration.ofDays(1));
    }

    @Test
    void weeklySundayAtThree_inBerlin_isSilentForSevenDaysAndAnHour() {
        assertThat(cadence("cron(0 3 ? * SUN *)", "Europe/Berlin").longestGap())
                .contains(Duration.ofDays(7).plusHours(1));
    }

    @Test
    void weeklySundayAtHalfPastTwo_inBerlin_skipsTheSpringForwardSundayAndIsSilentForTwoWeeksLessAnHour() {
        // 02:30 does not exist on the last Sunday of March: EventBridge skips that occurrence, and the
        // next one is already in summer time.
        assertThat(cadence("cron(30 2 ? * SUN *)", "Europe/Berlin").longestGap())
                .contains(Duration.ofDays(14).minusHours(1));
    }

    @Test
    void monthlyOnTheFirst_hasTheLongestMonthAsGap() {
        assertThat(cadence("cron(0 6 1 * ? *)", "UTC").longestGap()).contains(Duration.ofDays(31));
    }

    @Test
    void everyFifteenMinutes_isReportedAtTheOneHourResolution() {
        assertThat(cadence("*/15 * * * *", "Asia/Seoul").longestGap()).contains(Cadence.RESOLUTION);
    }

    @Test
    void everyMinuteOnTheFirstOfTheMonthOnly_findsTheMonthLongGapBetweenTheBursts() {
        // From 23:59 on the first of a 31-day month to 00:00 on the first of the next.
        assertThat(cadence("cron(* * 1 * ? *)", "UTC").longestGap())
                .contains(Duration.ofDays(30).plusMinutes(1));
    }

    @Test
    void unionOfAWeeklyAndADailySchedule_isOnlyAsSilentAsTheDailyOne() {
        Cadence pool = Cadence.of(
                List.of(
                        Schedule.parse("cron(0 3 ? * SUN *)", "Europe/Berlin"),
                        Schedule.parse("0 18 * * *", "Asia/Seoul")),
                FROM);

        assertThat(pool.longestGap()).contains(Duration.ofDays(1));
        assertThat(pool.mayIdleLongerThan(Duration.ofDays(7))).isFalse();
    }

    @Test
    void oneTimeSchedule_hasNoGapToMeasure_andCountsAsPossiblyIdle() {
        Cadence once = cadence("at(2027-01-15T10:00:00)", "Europe/Berlin");

        assertThat(once.longestGap()).isEmpty();
        assertThat(once.nextOccurrence()).contains(Instant.parse("2027-01-15T09:00:00Z"));
        assertThat(once.mayIdleLongerThan(Duration.ofDays(7))).isTrue();
    }

    @Test
    void everyMinute_inBerlin_findsTheFallBackHourThatRunsOnce() {
        Cadence minutely = cadence("* * * * *", "Europe/Berlin");

        // The repeated hour runs once: from 02:59 summer time the next minute is 03:00 winter time.
        assertThat(minutely.longestGap()).contains(Duration.ofMinutes(61));
    }
}
