package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** RRULE schedules (decision 0038): what is accepted, what is refused and why, and where they plug in. */
class RecurrenceScheduleTest {

    private static List<Instant> first(String expression, String zone, int n) {
        return OccurrenceCalculator.of(Schedule.parse(expression, zone))
                .timeline(Instant.EPOCH, Instant.parse("2200-01-01T00:00:00Z"), n)
                .stream()
                .filter(Occurrence.class::isInstance)
                .map(TimelineEntry::position)
                .toList();
    }

    private static List<Instant> instants(String... texts) {
        return java.util.Arrays.stream(texts).map(Instant::parse).toList();
    }

    @Test
    void everyOtherMonday_inBerlin_keepsNineOClockAcrossTheSpringChange() {
        List<Instant> runs = first("DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "Europe/Berlin", 8);
        assertThat(runs)
                .containsExactlyElementsOf(instants(
                        "2027-01-04T08:00:00Z",
                        "2027-01-18T08:00:00Z",
                        "2027-02-01T08:00:00Z",
                        "2027-02-15T08:00:00Z",
                        "2027-03-01T08:00:00Z",
                        "2027-03-15T08:00:00Z",
                        "2027-03-29T07:00:00Z", // summer time: still 09:00 in Berlin
                        "2027-04-12T07:00:00Z"));
    }

    @Test
    void lastFridayOfEachQuarter_inNewYork() {
        assertThat(first("DTSTART:20270326T170000 RRULE:FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR", "America/New_York", 5))
                .containsExactlyElementsOf(instants(
                        "2027-03-26T21:00:00Z",
                        "2027-06-25T21:00:00Z",
                        "2027-09-24T21:00:00Z",
                        "2027-12-31T22:00:00Z", // standard time
                        "2028-03-31T21:00:00Z"));
    }

    @Test
    void everyThreeDaysFromTheContractsStart_lastWeekdayOfTheMonthWithBysetpos_andNamesAreCaseInsensitive() {
        assertThat(first("DTSTART:20270130T080000 RRULE:FREQ=DAILY;INTERVAL=3;COUNT=3", "Asia/Kolkata", 10))
                .containsExactlyElementsOf(
                        instants("2027-01-30T02:30:00Z", "2027-02-02T02:30:00Z", "2027-02-05T02:30:00Z"));
        assertThat(first(
                        "dtstart:20270129t180000 rrule:freq=monthly;byday=mo,tu,we,th,fr;bysetpos=-1",
                        "Pacific/Chatham",
                        3))
                .containsExactlyElementsOf(instants(
                        "2027-01-29T04:15:00Z", // 18:00+13:45
                        "2027-02-26T04:15:00Z",
                        "2027-03-31T04:15:00Z"));
    }

    /** RFC 5545 3.8.5.3's own example: WKST decides which days of a fortnight belong together. */
    @Test
    void weekStart_decidesTheWeeksOfAnInterval_asInTheRfcExample() {
        String rule = "DTSTART:19970805T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=";
        assertThat(first(rule + "MO", "America/New_York", 10))
                .containsExactlyElementsOf(instants(
                        "1997-08-05T13:00:00Z",
                        "1997-08-10T13:00:00Z",
                        "1997-08-19T13:00:00Z",
                        "1997-08-24T13:00:00Z"));
        assertThat(first(rule + "SU", "America/New_York", 10))
                .containsExactlyElementsOf(instants(
                        "1997-08-05T13:00:00Z",
                        "1997-08-17T13:00:00Z",
                        "1997-08-19T13:00:00Z",
                        "1997-08-31T13:00:00Z"));
    }

    @Test
    void springForwardGap_isSkipped_andNotCountedByCount() {
        // 2027-03-28 02:30 does not exist in Berlin (02:00 -> 03:00): skipped, as cron is; COUNT=10 still runs 10 times
        OccurrenceCalculator calculator = OccurrenceCalculator.of(
                Schedule.parse("DTSTART:20270320T023000 RRULE:FREQ=DAILY;COUNT=10", "Europe/Berlin"));
        List<TimelineEntry> timeline =
                calculator.timeline(Instant.parse("2027-03-01T00:00:00Z"), Instant.parse("2027-05-01T00:00:00Z"), 100);
        assertThat(timeline.stream().filter(Occurrence.class::isInstance).count())
                .isEqualTo(10);
        assertThat(timeline)
                .filteredOn(SkippedLocalTime.class::isInstance)
                .singleElement()
                .satisfies(skipped -> {
                    assertThat(((SkippedLocalTime) skipped).localTime())
                            .isEqualTo(LocalDateTime.parse("2027-03-28T02:30"));
                    assertThat(skipped.note())
                            .hasValueSatisfying(note -> assertThat(note).contains("does not exist"));
                });
        assertThat(timeline.getLast().position()).isEqualTo(Instant.parse("2027-03-30T00:30:00Z"));
        assertThat(calculator.next(Instant.parse("2027-03-27T01:30:00Z")))
                .contains(Instant.parse("2027-03-29T00:30:00Z"));
        assertThat(calculator.next(Instant.parse("2027-03-30T00:30:00Z"))).isEmpty();
        assertThat(calculator.count(Instant.parse("2027-03-01T00:00:00Z"), Instant.parse("2028-01-01T00:00:00Z")))
                .isEqualTo(10);
    }

    @Test
    void dtstartInTheGap_isSkipped_andTheRuleGoesOn() {
        // Pacific/Chatham: 02:45 -> 03:45 on 2027-09-26
        ZoneId chatham = ZoneId.of("Pacific/Chatham");
        assertThat(chatham.getRules().getValidOffsets(LocalDateTime.parse("2027-09-26T03:00")))
                .isEmpty();
        assertThat(first("DTSTART:20270926T030000 RRULE:FREQ=WEEKLY;COUNT=2", "Pacific/Chatham", 5))
                .containsExactlyElementsOf(instants("2027-10-02T13:15:00Z", "2027-10-09T13:15:00Z"));
    }

    @Test
    void repeatedHour_runsOnce_atTheFirstInstant() {
        // 2027-10-31 02:30 happens twice in Berlin: once, at +02:00
        OccurrenceCalculator calculator = OccurrenceCalculator.of(
                Schedule.parse("DTSTART:20271029T023000 RRULE:FREQ=DAILY;COUNT=4", "Europe/Berlin"));
        List<TimelineEntry> timeline =
                calculator.timeline(Instant.parse("2027-10-01T00:00:00Z"), Instant.parse("2027-12-01T00:00:00Z"), 10);
        assertThat(timeline.stream().map(TimelineEntry::position))
                .containsExactlyElementsOf(instants(
                        "2027-10-29T00:30:00Z",
                        "2027-10-30T00:30:00Z",
                        "2027-10-31T00:30:00Z",
                        "2027-11-01T01:30:00Z"));
        assertThat(((Occurrence) timeline.get(2)).inRepeatedHour()).isTrue();
        assertThat(timeline.get(2).note())
                .hasValueSatisfying(note -> assertThat(note).contains("runs once, at the first"));
        // from the second pass of the repeated hour, the next is the next day and the previous the first pass
        assertThat(calculator.next(Instant.parse("2027-10-31T01:15:00Z")))
                .contains(Instant.parse("2027-11-01T01:30:00Z"));
        assertThat(calculator.previous(Instant.parse("2027-10-31T01:45:00Z")))
                .contains(Instant.parse("2027-10-31T00:30:00Z"));
        assertThat(calculator.isOccurrence(Instant.parse("2027-10-31T01:30:00Z")))
                .isFalse();
    }

    @Test
    void untilInUtc_isComparedWithTheInstant_andLocalUntilWithTheLocalTime() {
        // St John's is UTC-02:30 in summer: 09:00 local is 11:30Z
        String daily = "DTSTART:20270701T090000 RRULE:FREQ=DAILY;UNTIL=";
        assertThat(first(daily + "20270703T113000Z", "America/St_Johns", 10)).hasSize(3);
        assertThat(first(daily + "20270703T112959Z", "America/St_Johns", 10)).hasSize(2);
        assertThat(first(daily + "20270703T090000", "America/St_Johns", 10)).hasSize(3);
        assertThat(first(daily + "20270703T085900", "America/St_Johns", 10)).hasSize(2);
    }

    @Test
    void existingMachinery_readsARecurrenceUnchanged() {
        Schedule schedule =
                Schedule.parse("DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "Europe/Berlin");
        // 14 days, one of them an hour longer: the autumn change falls between two of the sampled Mondays
        assertThat(schedule.longestPeriod()).contains(Duration.ofDays(14).plusHours(1));
        OccurrenceCalculator calculator = OccurrenceCalculator.of(schedule);
        assertThat(calculator.isOccurrence(Instant.parse("2027-01-18T08:00:00Z")))
                .isTrue();
        assertThat(calculator.isOccurrence(Instant.parse("2027-01-11T08:00:00Z")))
                .isFalse();
        assertThat(calculator.previous(Instant.parse("2027-01-04T08:00:00Z"))).isEmpty();
        assertThat(calculator.count(Instant.parse("2027-01-01T00:00:00Z"), Instant.parse("2028-01-01T00:00:00Z")))
                .isEqualTo(26);
        assertThat(schedule.expression().describe()).isEqualTo("every 2 weeks on MO at 09:00 from 2027-01-04T09:00");
    }

    @Test
    void deployment_isTheContainingCronInTheJobsZone_andShiftsLikeACron() {
        Schedule schedule =
                Schedule.parse("DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "Europe/Berlin");
        assertThat(schedule.deployment())
                .isEqualTo(new Schedule.Deployment("cron(0 9 ? * MON 2027-2199)", ZoneId.of("Europe/Berlin")));
        assertThat(schedule.deployment(5))
                .isEqualTo(new Schedule.Deployment("cron(5 9 ? * MON 2027-2199)", ZoneId.of("Europe/Berlin")));
        assertThat(schedule.deployed().expression().toEventBridge()).isEqualTo("cron(0 9 ? * MON 2027-2199)");
    }

    /**
     * A COUNT's last occurrence depends on the zone (a gap's local time is not counted), so the deployed
     * cron's years end where the zone puts it, and the schedule stops firing after that year.
     */
    @ParameterizedTest(name = "{0} in {1} deploys as {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "DTSTART:20270101T080000 RRULE:FREQ=DAILY;BYHOUR=8,20;BYMINUTE=0,30;COUNT=9 | UTC"
                        + " | cron(0,30 8,20 * * ? 2027)",
                "DTSTART:20271220T090000 RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3 | Europe/Berlin"
                        + " | cron(0 9 ? * MON 2027-2028)",
                "DTSTART:20270115T063000 RRULE:FREQ=MONTHLY;UNTIL=20281231T000000 | Europe/Berlin"
                        + " | cron(30 6 15 * ? 2027-2028)",
                "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO | Europe/Berlin"
                        + " | cron(0 9 ? * MON 2027-2199)",
            })
    void deployment_endsItsYearsWithTheLastOccurrence(String rule, String zone, String cron) {
        assertThat(Schedule.parse(rule, zone).deployment().expression()).isEqualTo(cron);
    }

    /**
     * The last Sunday of March is Berlin's spring change: its 02:30 is not counted, so twelve monthly last
     * Sundays from January 2028 end in January 2029, not December 2028.
     */
    @Test
    void deployment_ofACountWhoseGapIsNotCounted_endsInTheYearOfItsLastRealOccurrence() {
        Schedule schedule =
                Schedule.parse("DTSTART:20280130T023000 RRULE:FREQ=MONTHLY;BYDAY=-1SU;COUNT=12", "Europe/Berlin");
        assertThat(schedule.deployment().expression()).isEqualTo("cron(30 2 ? * 1L 2028-2029)");
    }

    @ParameterizedTest(name = "{0} is contained in {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO | cron(0 9 ? * MON 2027-2199)",
                "DTSTART:20270326T170000 RRULE:FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR | cron(0 17 ? 3/3 6L 2027-2199)",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;INTERVAL=3 | cron(0 9 * * ? 2027-2199)",
                "DTSTART:20270104T090000 RRULE:FREQ=MONTHLY;BYDAY=1MO;BYMONTH=1 | cron(0 9 ? 1 2#1 2027-2199)",
                "DTSTART:20270115T063000 RRULE:FREQ=MONTHLY;UNTIL=20281231T000000 | cron(30 6 15 * ? 2027-2028)",
                "DTSTART:20270131T000000 RRULE:FREQ=MONTHLY;BYMONTHDAY=-1 | cron(0 0 L * ? 2027-2199)",
                "DTSTART:20270629T000000 RRULE:FREQ=YEARLY | cron(0 0 29 6 ? 2027-2199)",
                "DTSTART:20270101T080000 RRULE:FREQ=DAILY;BYHOUR=8,20;BYMINUTE=0,30;COUNT=9 | cron(0,30 8,20 * * ? 2027-2199)",
            })
    void containingCron_isTheNarrowestCronForTheRule(String rule, String cron) {
        assertThat(((RecurrenceExpression) ScheduleExpression.parse(rule))
                        .containingCron()
                        .toEventBridge())
                .isEqualTo(cron);
    }

    /** The property: every occurrence of the rule, in its zone, is an occurrence of its containing cron. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.punctual.time.RecurrenceReferenceTest#cases")
    void everyOccurrence_isAnOccurrenceOfTheContainingCron(RecurrenceReferenceTest.Case c) {
        Schedule schedule = Schedule.parse(c.expression(), c.zone());
        RecurrenceExpression rule = (RecurrenceExpression) schedule.expression();
        OccurrenceCalculator cron = OccurrenceCalculator.of(new Schedule(rule.containingCron(), schedule.zone()));
        for (Instant occurrence : first(c.expression(), c.zone(), 40)) {
            assertThat(cron.isOccurrence(occurrence))
                    .as(
                            "%s at %s is not an occurrence of %s",
                            c, occurrence, rule.containingCron().toEventBridge())
                    .isTrue();
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "RRULE:FREQ=DAILY | DTSTART | is missing",
                "DTSTART:20270104T090000 | RRULE | is missing",
                "DTSTART:20270104T090000 RRULE:INTERVAL=2 | FREQ | is missing",
                "DTSTART:20270104T090000 RRULE:FREQ=HOURLY | FREQ | not in Punctual's RRULE subset",
                "DTSTART:20270104T090000 RRULE:FREQ=MINUTELY | FREQ | not in Punctual's RRULE subset",
                "DTSTART:20270104T090000 RRULE:FREQ=SECONDLY | FREQ | more often than once a minute",
                "DTSTART:20270104T090000 RRULE:FREQ=FORTNIGHTLY | FREQ | is not a frequency",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;BYSECOND=0 | BYSECOND | whole minutes",
                "DTSTART:20270104T090000 RRULE:FREQ=YEARLY;BYWEEKNO=1 | BYWEEKNO | not in Punctual's RRULE subset",
                "DTSTART:20270104T090000 RRULE:FREQ=YEARLY;BYYEARDAY=4 | BYYEARDAY | not in Punctual's RRULE subset",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;RSCALE=GREGORIAN | RSCALE | RFC 7529",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;FOO=1 | FOO | is not an RRULE part",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;FREQ=WEEKLY | FREQ | is given twice",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY; | RRULE | empty part",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;;COUNT=2 | RRULE | empty part",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;COUNT | RRULE | without NAME=value",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY RDATE:20270105T090000 | RDATE | is not supported",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY EXDATE:20270105T090000 | EXDATE | is not supported",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY RRULE:FREQ=WEEKLY | RRULE | is given twice",
                "DTSTART:20270104T090000 DTSTART:20270105T090000 RRULE:FREQ=DAILY | DTSTART | is given twice",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;COUNT=3;UNTIL=20270110T000000 | COUNT | not both",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;COUNT=0 | COUNT | from 1 to 100000",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;COUNT=-1 | COUNT | from 1 to 100000",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;INTERVAL=0 | INTERVAL | from 1 to 1000",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;INTERVAL=two | INTERVAL | from 1 to 1000",
                "DTSTART:20270104T090030 RRULE:FREQ=DAILY | DTSTART | has seconds",
                "DTSTART:20270104T090000Z RRULE:FREQ=DAILY | DTSTART | is a UTC time",
                "DTSTART;TZID=Europe/Berlin:20270104T090000 RRULE:FREQ=DAILY | DTSTART | has a parameter",
                "DTSTART:20270104 RRULE:FREQ=DAILY | DTSTART | date without a time",
                "DTSTART:20271304T090000 RRULE:FREQ=DAILY | DTSTART | not a valid date-time",
                "DTSTART:22000104T090000 RRULE:FREQ=DAILY | DTSTART | out of range",
                "DTSTART:20270105T090000 RRULE:FREQ=WEEKLY;BYDAY=MO | DTSTART | such as 20270111T090000",
                "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;BYDAY=XX | BYDAY | not a weekday",
                "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;BYDAY=1MO | BYDAY | has an ordinal (1MO) with FREQ=WEEKLY",
                "DTSTART:20270104T090000 RRULE:FREQ=MONTHLY;BYDAY=6MO | BYDAY | ordinal is out of range",
                "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;BYDAY=MO,MO | BYDAY | lists MO twice",
                "DTSTART:20270104T090000 RRULE:FREQ=MONTHLY;BYMONTHDAY=0 | BYMONTHDAY | out of range",
                "DTSTART:20270104T090000 RRULE:FREQ=MONTHLY;BYMONTHDAY=32 | BYMONTHDAY | out of range",
                "DTSTART:20270104T090000 RRULE:FREQ=MONTHLY;BYMONTHDAY=4;BYDAY=1MO | BYDAY | ordinal together with BYMONTHDAY",
                "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;BYMONTHDAY=4 | BYMONTHDAY | not allowed with FREQ=WEEKLY",
                "DTSTART:20270104T090000 RRULE:FREQ=YEARLY;BYMONTHDAY=4 | BYMONTHDAY | needs BYMONTH",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;BYMONTH=13 | BYMONTH | out of range",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;BYMONTH=-1 | BYMONTH | out of range",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;BYHOUR=24 | BYHOUR | out of range",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;BYMINUTE=60 | BYMINUTE | out of range",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;BYMINUTE=0,x | BYMINUTE | not a number",
                "DTSTART:20270104T090000 RRULE:FREQ=MONTHLY;BYSETPOS=1 | BYSETPOS | needs another BY part",
                "DTSTART:20270104T090000 RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0 | BYSETPOS | out of range",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;UNTIL=20270110 | UNTIL | date without a time",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;UNTIL=20270103T090000 | UNTIL | before DTSTART",
                "DTSTART:20270104T090000 RRULE:FREQ=DAILY;WKST=XX | WKST | not a weekday",
                "DTSTART:20270104T090000 XRULE:FREQ=DAILY | schedule | neither DTSTART",
            })
    void outsideTheSubset_isRefused_namingThePartAndWhatIsAccepted(String text, String part, String problem) {
        assertThatThrownBy(() -> ScheduleExpression.parse(text))
                .isInstanceOfSatisfying(ScheduleExpressionException.class, e -> {
                    assertThat(e.part()).isEqualTo(part);
                    assertThat(e.getMessage()).contains(problem).contains("; accepted: ");
                });
    }
}
