package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hand-checked occurrences around daylight-saving transitions (dates from the zones' published rules;
 * UTC times worked out by hand). EventBridge Scheduler skips a local time that does not exist and runs
 * a repeated local time once; Punctual takes the earlier instant.
 */
class DstGoldenTest {

    private static List<String> utc(String expression, String zone, String from, int count) {
        var calculator = OccurrenceCalculator.of(Schedule.parse(expression, zone));
        return calculator.timeline(Instant.parse(from), Instant.parse("2199-01-01T00:00:00Z"), count).stream()
                .filter(Occurrence.class::isInstance)
                .map(entry -> entry.position().toString())
                .toList();
    }

    private static List<TimelineEntry> timeline(String expression, String zone, String from, String to) {
        return OccurrenceCalculator.of(Schedule.parse(expression, zone))
                .timeline(Instant.parse(from), Instant.parse(to), 1000);
    }

    @Test
    void berlinSpringForward_dailyAt0230_skipsLastSundayOfMarch() {
        assertThat(utc("30 2 * * *", "Europe/Berlin", "2027-03-26T00:00:00Z", 4))
                .containsExactly(
                        "2027-03-26T01:30:00Z", "2027-03-27T01:30:00Z", "2027-03-29T00:30:00Z", "2027-03-30T00:30:00Z");
    }

    @Test
    void berlinSpringForward_skippedLocalTime_isReportedWithANote() {
        var entries = timeline("30 2 * * *", "Europe/Berlin", "2027-03-27T12:00:00Z", "2027-03-29T12:00:00Z");
        assertThat(entries).hasSize(2);
        assertThat(entries.get(0)).isInstanceOf(SkippedLocalTime.class);
        assertThat(entries.get(0).position()).isEqualTo(Instant.parse("2027-03-28T01:00:00Z"));
        assertThat(entries.get(0).note()).get().asString().contains("2027-03-28T02:30", "skipped");
        assertThat(entries.get(1).position()).isEqualTo(Instant.parse("2027-03-29T00:30:00Z"));
        assertThat(entries.get(1).note()).isEmpty();
    }

    @Test
    void berlinFallBack_dailyAt0230_runsOnceAtTheEarlierInstant() {
        assertThat(utc("30 2 * * *", "Europe/Berlin", "2027-10-30T00:00:00Z", 3))
                .containsExactly("2027-10-30T00:30:00Z", "2027-10-31T00:30:00Z", "2027-11-01T01:30:00Z");
        var repeated =
                (Occurrence) timeline("30 2 * * *", "Europe/Berlin", "2027-10-31T00:00:00Z", "2027-10-31T12:00:00Z")
                        .get(0);
        assertThat(repeated.local().toString()).isEqualTo("2027-10-31T02:30+02:00");
        assertThat(repeated.note()).get().asString().contains("occurs twice", "runs once");
    }

    @Test
    void berlinFallBack_everyQuarterHour_runsTheRepeatedHourOnceThenWaitsForIt() {
        assertThat(utc("*/15 * * * *", "Europe/Berlin", "2027-10-30T23:40:00Z", 7))
                .containsExactly(
                        "2027-10-30T23:45:00Z",
                        "2027-10-31T00:00:00Z",
                        "2027-10-31T00:15:00Z",
                        "2027-10-31T00:30:00Z",
                        "2027-10-31T00:45:00Z",
                        "2027-10-31T02:00:00Z",
                        "2027-10-31T02:15:00Z");
    }

    @Test
    void berlinFallBack_searchStartingInsideTheSecondPass_doesNotRepeatTheHour() {
        var calculator = OccurrenceCalculator.of(Schedule.parse("*/15 * * * *", "Europe/Berlin"));
        assertThat(calculator.next(Instant.parse("2027-10-31T01:20:00Z")))
                .contains(Instant.parse("2027-10-31T02:00:00Z"));
        assertThat(calculator.previous(Instant.parse("2027-10-31T01:50:00Z")))
                .contains(Instant.parse("2027-10-31T00:45:00Z"));
    }

    @Test
    void newYorkSpringForward_dailyAt0230_skipsSecondSundayOfMarch() {
        assertThat(utc("30 2 * * *", "America/New_York", "2027-03-13T00:00:00Z", 3))
                .containsExactly("2027-03-13T07:30:00Z", "2027-03-15T06:30:00Z", "2027-03-16T06:30:00Z");
    }

    @Test
    void newYorkFallBack_dailyAt0130_runsOnceInEdt() {
        assertThat(utc("30 1 * * *", "America/New_York", "2027-11-06T00:00:00Z", 3))
                .containsExactly("2027-11-06T05:30:00Z", "2027-11-07T05:30:00Z", "2027-11-08T06:30:00Z");
    }

    @Test
    void sydneySpringForwardInOctober_dailyAt0230_skipsFirstSundayOfOctober() {
        assertThat(utc("30 2 * * *", "Australia/Sydney", "2027-10-01T00:00:00Z", 3))
                .containsExactly("2027-10-01T16:30:00Z", "2027-10-03T15:30:00Z", "2027-10-04T15:30:00Z");
    }

    @Test
    void sydneyFallBackInApril_dailyAt0230_runsOnceInAedt() {
        assertThat(utc("30 2 * * *", "Australia/Sydney", "2027-04-02T00:00:00Z", 3))
                .containsExactly("2027-04-02T15:30:00Z", "2027-04-03T15:30:00Z", "2027-04-04T16:30:00Z");
    }

    @Test
    void lordHoweHalfHourSpringForward_0215SkippedBut0245Runs() {
        assertThat(utc("15 2 * * *", "Australia/Lord_Howe", "2027-10-01T00:00:00Z", 2))
                .containsExactly("2027-10-01T15:45:00Z", "2027-10-03T15:15:00Z");
        assertThat(utc("45 2 * * *", "Australia/Lord_Howe", "2027-10-01T00:00:00Z", 3))
                .containsExactly("2027-10-01T16:15:00Z", "2027-10-02T15:45:00Z", "2027-10-03T15:45:00Z");
    }

    @Test
    void lordHoweHalfHourFallBack_0145RunsOnceAtPlusEleven() {
        assertThat(utc("45 1 * * *", "Australia/Lord_Howe", "2027-04-02T00:00:00Z", 3))
                .containsExactly("2027-04-02T14:45:00Z", "2027-04-03T14:45:00Z", "2027-04-04T15:15:00Z");
    }

    @Test
    void santiagoMidnightSpringForward_dailyAtMidnight_skipsTheDayWithoutMidnight() {
        assertThat(utc("0 0 * * *", "America/Santiago", "2027-09-03T12:00:00Z", 3))
                .containsExactly("2027-09-04T04:00:00Z", "2027-09-06T03:00:00Z", "2027-09-07T03:00:00Z");
    }

    @Test
    void santiagoMidnightFallBack_dailyAt2330_runsOnceOnTheRepeatedEvening() {
        assertThat(utc("30 23 * * *", "America/Santiago", "2027-04-02T12:00:00Z", 3))
                .containsExactly("2027-04-03T02:30:00Z", "2027-04-04T02:30:00Z", "2027-04-05T03:30:00Z");
    }

    @Test
    void beirutMidnightSpringForward_dailyAtMidnight_skipsLastSundayOfMarch() {
        assertThat(utc("0 0 * * *", "Asia/Beirut", "2027-03-26T12:00:00Z", 3))
                .containsExactly("2027-03-26T22:00:00Z", "2027-03-28T21:00:00Z", "2027-03-29T21:00:00Z");
    }

    @Test
    void beirutMidnightFallBack_dailyAt2330_runsOnceOnTheRepeatedSaturdayEvening() {
        assertThat(utc("30 23 * * *", "Asia/Beirut", "2027-10-29T12:00:00Z", 3))
                .containsExactly("2027-10-29T20:30:00Z", "2027-10-30T20:30:00Z", "2027-10-31T21:30:00Z");
    }

    @Test
    void havanaMidnightTransitions_dailyAt0030_skippedInMarchAndRunOnceInNovember() {
        assertThat(utc("30 0 * * *", "America/Havana", "2027-03-13T00:00:00Z", 2))
                .containsExactly("2027-03-13T05:30:00Z", "2027-03-15T04:30:00Z");
        assertThat(utc("30 0 * * *", "America/Havana", "2027-11-06T00:00:00Z", 3))
                .containsExactly("2027-11-06T04:30:00Z", "2027-11-07T04:30:00Z", "2027-11-08T05:30:00Z");
    }

    @Test
    void rate_acrossBerlinSpringForward_countsElapsedTimeSoLocalTimeShifts() {
        var calculator = OccurrenceCalculator.of(Schedule.parse("rate(1 day)", "Europe/Berlin"));
        var entries =
                calculator.timeline(Instant.parse("2027-03-27T00:00:00Z"), Instant.parse("2027-03-29T00:00:01Z"), 10);
        assertThat(entries)
                .map(TimelineEntry::position)
                .map(Instant::toString)
                .containsExactly("2027-03-27T00:00:00Z", "2027-03-28T00:00:00Z", "2027-03-29T00:00:00Z");
        assertThat(((Occurrence) entries.get(2)).local().toString()).isEqualTo("2027-03-29T02:00+02:00");
    }
}
