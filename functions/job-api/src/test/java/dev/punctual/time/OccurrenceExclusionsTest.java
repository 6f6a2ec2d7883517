package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** A job's occurrences minus its calendar and blackouts (decision 0034): the one rule every path asks. */
class OccurrenceExclusionsTest {

    private static final HolidayCalendar NEW_YEAR = HolidayCalendar.of(
            "new-year",
            LocalDate.of(2026, 1, 1),
            LocalDate.of(2027, 12, 31),
            Map.of(LocalDate.of(2027, 1, 1), "New Year's Day"));

    private static Instant local(String dateTime, String zone) {
        return LocalDateTime.parse(dateTime).atZone(ZoneId.of(zone)).toInstant();
    }

    private static OccurrenceCalculator job(String cron, String zone, Exclusion... exclusions) {
        return OccurrenceCalculator.of(Schedule.parse(cron, zone), new Exclusions(List.of(exclusions)));
    }

    @Nested
    class Calendars {

        @Test
        void aHolidayIsReadInTheJobsOwnZone_evenFourteenHoursAheadOfUtc() {
            String zone = "Pacific/Kiritimati";
            OccurrenceCalculator daily = job("0 9 * * *", zone, new CalendarRule(NEW_YEAR, false, ZoneId.of(zone)));
            Instant newYearMorning = local("2027-01-01T09:00", zone); // 2026-12-31T19:00Z

            assertThat(newYearMorning).isEqualTo(Instant.parse("2026-12-31T19:00:00Z"));
            assertThat(daily.isOccurrence(newYearMorning)).isFalse();
            assertThat(daily.excluded(newYearMorning).orElseThrow().why())
                    .isEqualTo("2027-01-01 is New Year's Day in calendar new-year");
            assertThat(daily.next(local("2026-12-31T09:00", zone))).contains(local("2027-01-02T09:00", zone));
        }

        @Test
        void aHolidayIsReadInTheJobsOwnZone_elevenHoursBehindUtc() {
            String zone = "Pacific/Pago_Pago";
            OccurrenceCalculator daily = job("0 23 * * *", zone, new CalendarRule(NEW_YEAR, false, ZoneId.of(zone)));
            Instant newYearNight = local("2027-01-01T23:00", zone); // 2027-01-02T10:00Z

            assertThat(newYearNight).isEqualTo(Instant.parse("2027-01-02T10:00:00Z"));
            assertThat(daily.isOccurrence(newYearNight)).isFalse();
            assertThat(daily.isOccurrence(local("2026-12-31T23:00", zone))).isTrue();
            assertThat(daily.previous(local("2027-01-02T23:00", zone))).contains(local("2026-12-31T23:00", zone));
        }

        @Test
        void businessDays_skipTheWeekendAndTheHoliday_inNextPreviousAndCount() {
            String zone = "Asia/Seoul";
            // 2027-01-01 is a Friday: Thursday's next business day is Monday 2027-01-04.
            OccurrenceCalculator weekdays = job("0 9 * * *", zone, new CalendarRule(NEW_YEAR, true, ZoneId.of(zone)));

            assertThat(weekdays.next(local("2026-12-31T09:00", zone))).contains(local("2027-01-04T09:00", zone));
            assertThat(weekdays.previous(local("2027-01-04T09:00", zone))).contains(local("2026-12-31T09:00", zone));
            assertThat(weekdays.count(local("2026-12-31T09:00", zone), local("2027-01-04T09:00", zone)))
                    .isZero();
            assertThat(weekdays.count(local("2026-12-27T00:00", zone), local("2027-01-10T00:00", zone)))
                    .as("Mon-Thu of the first week, Mon-Fri of the second")
                    .isEqualTo(9);
        }

        @Test
        void aWeekdayPastTheCalendarsEnd_isNotExcluded_butIsReportedAsBeyondItsRange() {
            CalendarRule rule = new CalendarRule(NEW_YEAR, true, ZoneId.of("Asia/Seoul"));
            Instant monday2028 = local("2028-01-03T09:00", "Asia/Seoul");
            Instant saturday2028 = local("2028-01-01T09:00", "Asia/Seoul");

            assertThat(rule.covering(monday2028)).isEmpty();
            assertThat(rule.beyondRange(monday2028))
                    .hasValueSatisfying(why -> assertThat(why)
                            .contains("calendar new-year covers 2026-01-01 .. 2027-12-31, not 2028-01-03"));
            assertThat(rule.covering(saturday2028))
                    .as("a weekend is known without the calendar")
                    .isPresent();
            assertThat(rule.beyondRange(saturday2028)).isEmpty();
        }
    }

    @Nested
    class Blackouts {
        private final Blackout nightly =
                Blackout.daily(LocalTime.of(23, 0), LocalTime.of(1, 0), "Europe/Berlin", "backup");

        @Test
        void theFirstMinuteIsInside_andTheEndIsNot() {
            OccurrenceCalculator everyMinute = job("* * * * *", "Europe/Berlin", nightly);

            assertThat(everyMinute.isOccurrence(local("2027-01-15T22:59", "Europe/Berlin")))
                    .isTrue();
            assertThat(everyMinute.isOccurrence(local("2027-01-15T23:00", "Europe/Berlin")))
                    .isFalse();
            assertThat(everyMinute.isOccurrence(local("2027-01-16T00:59", "Europe/Berlin")))
                    .isFalse();
            assertThat(everyMinute.isOccurrence(local("2027-01-16T01:00", "Europe/Berlin")))
                    .isTrue();
            assertThat(everyMinute.next(local("2027-01-15T22:59", "Europe/Berlin")))
                    .contains(local("2027-01-16T01:00", "Europe/Berlin"));
            assertThat(everyMinute.count(
                            local("2027-01-15T22:00", "Europe/Berlin"), local("2027-01-16T02:00", "Europe/Berlin")))
                    .as("22:01..22:59 and 01:00..01:59")
                    .isEqualTo(59 + 60);
        }

        @Test
        void aWindowAcrossSpringForward_isOneRealHourShorter() {
            // Europe/Berlin, 2027-03-28: 02:00 CET becomes 03:00 CEST.
            Blackout early = Blackout.daily(LocalTime.of(1, 0), LocalTime.of(4, 0), "Europe/Berlin", "etl");
            ExcludedSpan span =
                    early.covering(Instant.parse("2027-03-28T01:30:00Z")).orElseThrow();

            assertThat(span.from()).isEqualTo(Instant.parse("2027-03-28T00:00:00Z"));
            assertThat(span.until()).isEqualTo(Instant.parse("2027-03-28T02:00:00Z"));
        }

        @Test
        void aWindowStartingInTheGap_coversTheFirstLocalTimeAfterIt() {
            Blackout gap = Blackout.daily(LocalTime.of(2, 30), LocalTime.of(4, 0), "Europe/Berlin", "etl");
            OccurrenceCalculator hourly = job("0 * * * *", "Europe/Berlin", gap);

            assertThat(hourly.isOccurrence(local("2027-03-28T03:00", "Europe/Berlin")))
                    .isFalse();
            assertThat(hourly.isOccurrence(local("2027-03-28T04:00", "Europe/Berlin")))
                    .isTrue();
            assertThat(hourly.isOccurrence(local("2027-03-27T03:00", "Europe/Berlin")))
                    .isFalse();
        }

        @Test
        void aWindowAcrossFallBack_coversBothPassesOfTheRepeatedHour() {
            // Europe/Berlin, 2027-10-31: 03:00 CEST becomes 02:00 CET; 02:xx happens twice.
            Blackout toHalfPastTwo = Blackout.daily(LocalTime.of(1, 0), LocalTime.of(2, 30), "Europe/Berlin", "etl");
            ExcludedSpan span = toHalfPastTwo
                    .covering(Instant.parse("2027-10-31T00:30:00Z"))
                    .orElseThrow();

            assertThat(span.from()).isEqualTo(Instant.parse("2027-10-30T23:00:00Z")); // 01:00 CEST
            assertThat(span.until()).isEqualTo(Instant.parse("2027-10-31T01:30:00Z")); // the second 02:30, CET
            assertThat(toHalfPastTwo.covering(Instant.parse("2027-10-31T01:15:00Z")))
                    .isPresent();
        }

        @Test
        void aWeeklyWindow_holdsOnlyOnTheDaysItStarts() {
            Blackout sundayNight = Blackout.daily(LocalTime.of(22, 0), LocalTime.of(2, 0), "UTC", "patching")
                    .on(DayOfWeek.SUNDAY);

            assertThat(sundayNight.covering(Instant.parse("2027-01-18T01:00:00Z")))
                    .as("Monday 01:00 is the end of Sunday's window")
                    .isPresent();
            assertThat(sundayNight.covering(Instant.parse("2027-01-19T01:00:00Z")))
                    .isEmpty();
            assertThat(sundayNight.covering(Instant.parse("2027-01-18T22:30:00Z")))
                    .isEmpty();
        }

        @Test
        void aOneOffWindowInLocalTime_holdsOnceAndNeverAgain() {
            Blackout migration = Blackout.once(
                    LocalDateTime.parse("2027-01-15T02:00"),
                    LocalDateTime.parse("2027-01-15T06:00"),
                    "Asia/Seoul",
                    "db migration");
            OccurrenceCalculator hourly = job("0 * * * *", "Asia/Seoul", migration);

            assertThat(hourly.between(
                            local("2027-01-15T00:00", "Asia/Seoul"), local("2027-01-15T08:00", "Asia/Seoul"), 10))
                    .extracting(i ->
                            ZonedDateTime.ofInstant(i, ZoneId.of("Asia/Seoul")).getHour())
                    .containsExactly(0, 1, 6, 7);
            assertThat(hourly.isOccurrence(local("2027-01-16T03:00", "Asia/Seoul")))
                    .isTrue();
        }

        @Test
        void anEmptyWindow_andABlankReason_areRefused() {
            assertThatThrownBy(() -> Blackout.daily(LocalTime.NOON, LocalTime.NOON, "UTC", "x"))
                    .hasMessageContaining("is empty");
            assertThatThrownBy(() -> Blackout.daily(LocalTime.NOON, LocalTime.MIDNIGHT, "UTC", " "))
                    .hasMessageContaining("blackout reason");
            assertThatThrownBy(() -> Blackout.daily(LocalTime.NOON, LocalTime.MIDNIGHT, "Europe/Berln", "x"))
                    .hasMessageContaining("time-zone");
        }
    }

    @Nested
    class Counting {

        @Test
        void countNextAndPrevious_agreeWithFilteringTheScheduleOneByOne() {
            Random random = new Random(34);
            Exclusions exclusions = new Exclusions(List.of(
                    new CalendarRule(NEW_YEAR, true, ZoneId.of("America/New_York")),
                    Blackout.daily(LocalTime.of(23, 30), LocalTime.of(0, 45), "Europe/Berlin", "nightly"),
                    Blackout.once(
                            Instant.parse("2027-03-14T05:00:00Z"), Instant.parse("2027-03-14T09:10:00Z"), "dst")));
            Schedule schedule = Schedule.parse("*/15 * * * *", "America/New_York");
            OccurrenceCalculator plain = OccurrenceCalculator.of(schedule);
            OccurrenceCalculator excluding = OccurrenceCalculator.of(schedule, exclusions);
            Instant base = Instant.parse("2026-12-20T00:00:00Z");
            for (int i = 0; i < 200; i++) {
                Instant from = base.plusSeconds(random.nextInt(120 * 86_400));
                Instant to = from.plusSeconds(random.nextInt(5 * 86_400));
                List<Instant> kept = plain.between(from.plusSeconds(1), to, 100_000).stream()
                        .filter(t -> exclusions.covering(t).isEmpty())
                        .toList();

                assertThat(excluding.count(from, to))
                        .as("count %s .. %s", from, to)
                        .isEqualTo(kept.size());
                if (!kept.isEmpty()) {
                    assertThat(excluding.next(from)).as("next after %s", from).contains(kept.getFirst());
                    assertThat(excluding.previous(to))
                            .as("previous before %s", to)
                            .contains(kept.getLast());
                }
                assertThat(excluding.between(from.plusSeconds(1), to, 100_000)).isEqualTo(kept);
            }
        }
    }

    @Nested
    class CalendarFiles {

        @Test
        void aFileIsReadWithItsRangeAndDates() {
            HolidayCalendar read = HolidayCalendar.parse("kr.txt", """
                    # Korea, 2027
                    calendar: kr-public-holidays
                    covers: 2027-01-01 .. 2027-12-31
                    2027-01-01 New Year's Day
                    2027-02-08   Seollal
                    """);

            assertThat(read.name()).isEqualTo("kr-public-holidays");
            assertThat(read.lastDay()).isEqualTo(LocalDate.of(2027, 12, 31));
            assertThat(read.dates())
                    .containsExactly(
                            Map.entry(LocalDate.of(2027, 1, 1), "New Year's Day"),
                            Map.entry(LocalDate.of(2027, 2, 8), "Seollal"));
        }

        @Test
        void aMisspelledLine_isRefusedWithItsLineNumber_neverDropped() {
            assertThatThrownBy(() -> HolidayCalendar.parse(
                            "kr.txt", "calendar: kr\ncovers: 2027-01-01 .. 2027-12-31\nholiday 2027-03-01\n"))
                    .hasMessageContaining("kr.txt line 3")
                    .hasMessageContaining("accepted");
            assertThatThrownBy(() -> HolidayCalendar.parse(
                            "kr.txt", "calendar: kr\ncovers: 2027-01-01 .. 2027-12-31\n2027-02-30 x\n"))
                    .hasMessageContaining("kr.txt line 3")
                    .hasMessageContaining("is not a date");
        }

        @Test
        void aDateOutsideTheRange_aDateListedTwice_andAMissingRange_areRefused() {
            assertThatThrownBy(() -> HolidayCalendar.parse(
                            "kr.txt", "calendar: kr\ncovers: 2027-01-01 .. 2027-12-31\n2028-01-01 x\n"))
                    .hasMessageContaining("outside the calendar's range");
            assertThatThrownBy(() -> HolidayCalendar.parse(
                            "kr.txt", "calendar: kr\ncovers: 2027-01-01 .. 2027-12-31\n2027-05-05 a\n2027-05-05 b\n"))
                    .hasMessageContaining("line 4")
                    .hasMessageContaining("listed twice");
            assertThatThrownBy(() -> HolidayCalendar.parse("kr.txt", "calendar: kr\n2027-05-05 a\n"))
                    .hasMessageContaining("covers: FIRST .. LAST");
        }
    }
}
