package dev.punctual.time;

import dev.punctual.time.RecurrenceExpression.Frequency;
import dev.punctual.time.RecurrenceExpression.WeekdayNum;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Optional;

/**
 * The local times an RRULE produces, before any zone, period by period (a day, a week starting on WKST, a
 * month or a year), as RFC 5545 section 3.3.10 expands and limits them: the BY parts give each period's
 * candidate days and times, BYSETPOS then picks among them, and only every INTERVAL-th period from
 * DTSTART's is used. DTSTART, COUNT and UNTIL are not applied here (see {@link RecurrenceOccurrences}).
 *
 * <p>Works on "local epoch seconds" ({@link LocalCalendar}); immutable.
 */
final class RecurrenceRule {
    private static final long DAY = 86_400;
    /** 1970-01-05, a Monday, as an epoch day. */
    private static final long FIRST_MONDAY = 4;

    private final RecurrenceExpression rule;
    private final int[] minutesOfDay;
    private final long startLocal;
    private final long startPeriod;

    RecurrenceRule(RecurrenceExpression rule) {
        this.rule = rule;
        int[] hours = rule.byHour().isEmpty()
                ? new int[] {rule.start().getHour()}
                : rule.byHour().stream().mapToInt(Integer::intValue).toArray();
        int[] minutes = rule.byMinute().isEmpty()
                ? new int[] {rule.start().getMinute()}
                : rule.byMinute().stream().mapToInt(Integer::intValue).toArray();
        minutesOfDay = new int[hours.length * minutes.length];
        int i = 0;
        for (int hour : hours) {
            for (int minute : minutes) {
                minutesOfDay[i++] = hour * 60 + minute;
            }
        }
        Arrays.sort(minutesOfDay);
        this.startLocal = LocalCalendar.localSeconds(rule.start());
        this.startPeriod = periodOf(startLocal);
    }

    long startLocal() {
        return startLocal;
    }

    long startPeriod() {
        return startPeriod;
    }

    int interval() {
        return rule.interval();
    }

    /** The index of the period holding a local time: epoch day, week, year * 12 + month - 1, or year. */
    long periodOf(long localSeconds) {
        long day = Math.floorDiv(localSeconds, DAY);
        return switch (rule.frequency()) {
            case DAILY -> day;
            case WEEKLY -> Math.floorDiv(day - weekStartDay(), 7);
            case MONTHLY -> {
                LocalDateTime local = LocalCalendar.localDateTime(localSeconds);
                yield local.getYear() * 12L + local.getMonthValue() - 1;
            }
            case YEARLY -> LocalCalendar.localDateTime(localSeconds).getYear();
        };
    }

    private long weekStartDay() {
        return FIRST_MONDAY + rule.weekStart().getValue() - 1;
    }

    /** The first year the period touches: searches stop past {@link LocalCalendar#LAST_YEAR}. */
    int firstYearOf(long period) {
        return switch (rule.frequency()) {
            case DAILY -> LocalCalendar.localDateTime(period * DAY).getYear();
            case WEEKLY ->
                LocalCalendar.localDateTime((period * 7 + weekStartDay()) * DAY).getYear();
            case MONTHLY -> (int) Math.floorDiv(period, 12);
            case YEARLY -> (int) period;
        };
    }

    /** The last period at or before {@code period} that the rule uses, or one before DTSTART's if none. */
    long usedAtOrBefore(long period) {
        if (period < startPeriod) {
            return startPeriod - 1;
        }
        return startPeriod + Math.floorDiv(period - startPeriod, rule.interval()) * rule.interval();
    }

    /** The first period at or after {@code period} that the rule uses. */
    long usedAtOrAfter(long period) {
        if (period <= startPeriod) {
            return startPeriod;
        }
        return startPeriod + Math.ceilDiv(period - startPeriod, rule.interval()) * (long) rule.interval();
    }

    /** Whether DTSTART-independent generation produces this local time. */
    boolean produces(LocalDateTime local) {
        long seconds = LocalCalendar.localSeconds(local);
        return Arrays.binarySearch(candidates(periodOf(seconds)), seconds) >= 0;
    }

    /** The first local time the rule produces at or after {@code local}, in a used period, before 2200. */
    Optional<LocalDateTime> firstLocalAtOrAfter(LocalDateTime local) {
        long seconds = LocalCalendar.localSeconds(local);
        for (long period = usedAtOrAfter(periodOf(seconds));
                firstYearOf(period) <= LocalCalendar.LAST_YEAR;
                period += rule.interval()) {
            for (long candidate : candidates(period)) {
                if (candidate >= seconds) {
                    return Optional.of(LocalCalendar.localDateTime(candidate));
                }
            }
        }
        return Optional.empty();
    }

    /** The period's local times, ascending, after BYSETPOS; no DTSTART, COUNT or UNTIL applied. */
    long[] candidates(long period) {
        long[] days = days(period);
        if (days.length == 0) {
            return days;
        }
        long[] all = new long[days.length * minutesOfDay.length];
        int i = 0;
        for (long day : days) {
            for (int minute : minutesOfDay) {
                all[i++] = day * DAY + minute * 60L;
            }
        }
        if (rule.bySetPos().isEmpty()) {
            return all;
        }
        long[] chosen = new long[rule.bySetPos().size()];
        int n = 0;
        for (int position : rule.bySetPos()) {
            int index = position > 0 ? position - 1 : all.length + position;
            if (index >= 0 && index < all.length) {
                chosen[n++] = all[index];
            }
        }
        long[] picked = Arrays.stream(chosen, 0, n).sorted().distinct().toArray();
        return picked;
    }

    /** The period's days (epoch days), ascending. */
    private long[] days(long period) {
        return switch (rule.frequency()) {
            case DAILY -> dailyDays(period);
            case WEEKLY -> weeklyDays(period);
            case MONTHLY -> {
                int year = (int) Math.floorDiv(period, 12);
                int month = Math.floorMod(period, 12) + 1;
                yield inMonth(rule.byMonth(), month) ? monthDays(year, month) : new long[0];
            }
            case YEARLY -> yearlyDays((int) period);
        };
    }

    private long[] dailyDays(long day) {
        LocalDateTime date = LocalCalendar.localDateTime(day * DAY);
        boolean keep = inMonth(rule.byMonth(), date.getMonthValue())
                && (rule.byMonthDay().isEmpty()
                        || matchesMonthDay(date.getYear(), date.getMonthValue(), date.getDayOfMonth()))
                && (rule.byDay().isEmpty() || matchesWeekday(date.getDayOfWeek()));
        return keep ? new long[] {day} : new long[0];
    }

    private long[] weeklyDays(long week) {
        long first = week * 7 + weekStartDay();
        long[] days = new long[7];
        int n = 0;
        for (long day = first; day < first + 7; day++) {
            LocalDateTime date = LocalCalendar.localDateTime(day * DAY);
            boolean weekday = rule.byDay().isEmpty()
                    ? date.getDayOfWeek() == rule.start().getDayOfWeek()
                    : matchesWeekday(date.getDayOfWeek());
            if (weekday && inMonth(rule.byMonth(), date.getMonthValue())) {
                days[n++] = day;
            }
        }
        return Arrays.copyOf(days, n);
    }

    private long[] yearlyDays(int year) {
        boolean dayParts = !rule.byDay().isEmpty() || !rule.byMonthDay().isEmpty();
        if (!rule.byMonthDay().isEmpty() || !rule.byMonth().isEmpty() || !dayParts) {
            // Month by month: BYMONTH's months (every month when only BYMONTHDAY is given; DTSTART's month
            // when no BY part names a day or a month).
            long[] days = new long[0];
            for (int month = 1; month <= 12; month++) {
                boolean used = !rule.byMonth().isEmpty()
                        ? rule.byMonth().contains(month)
                        : dayParts || month == rule.start().getMonthValue();
                if (used) {
                    days = concat(days, monthDays(year, month));
                }
            }
            return days;
        }
        // BYDAY alone: the weekdays of the whole year, ordinals counted in the year (20MO, -1FR).
        long first = LocalCalendar.epochDay(year, 1, 1);
        int length = LocalCalendar.isLeap(year) ? 366 : 365;
        return weekdaysIn(first, length);
    }

    /**
     * The days of one month the rule keeps: BYMONTHDAY's (limited by BYDAY's weekdays), else BYDAY's (ordinals
     * counted in the month), else DTSTART's day of the month (none in a month too short for it).
     */
    private long[] monthDays(int year, int month) {
        int length = LocalCalendar.monthLength(year, month);
        long first = LocalCalendar.epochDay(year, month, 1);
        if (!rule.byMonthDay().isEmpty()) {
            long[] days = new long[rule.byMonthDay().size()];
            int n = 0;
            for (int dayOfMonth = 1; dayOfMonth <= length; dayOfMonth++) {
                if (matchesMonthDay(year, month, dayOfMonth)) {
                    long day = first + dayOfMonth - 1;
                    if (rule.byDay().isEmpty() || matchesWeekday(weekdayOf(day))) {
                        days[n++] = day;
                    }
                }
            }
            return Arrays.copyOf(days, n);
        }
        if (!rule.byDay().isEmpty()) {
            return weekdaysIn(first, length);
        }
        int dayOfMonth = rule.start().getDayOfMonth();
        return dayOfMonth <= length ? new long[] {first + dayOfMonth - 1} : new long[0];
    }

    /** The days of [first, first + length) that BYDAY names, an ordinal counting within that span. */
    private long[] weekdaysIn(long first, int length) {
        boolean[] keep = new boolean[length];
        for (WeekdayNum entry : rule.byDay()) {
            int offset = Math.floorMod(entry.day().getValue() - weekdayOf(first).getValue(), 7);
            int occurrences = (length - offset + 6) / 7;
            if (entry.ordinal() == 0) {
                for (int k = 0; k < occurrences; k++) {
                    keep[offset + 7 * k] = true;
                }
            } else {
                int k = entry.ordinal() > 0 ? entry.ordinal() - 1 : occurrences + entry.ordinal();
                if (k >= 0 && k < occurrences) {
                    keep[offset + 7 * k] = true;
                }
            }
        }
        long[] days = new long[length];
        int n = 0;
        for (int i = 0; i < length; i++) {
            if (keep[i]) {
                days[n++] = first + i;
            }
        }
        return Arrays.copyOf(days, n);
    }

    private boolean matchesMonthDay(int year, int month, int dayOfMonth) {
        int length = LocalCalendar.monthLength(year, month);
        for (int wanted : rule.byMonthDay()) {
            if (wanted == dayOfMonth || (wanted < 0 && length + 1 + wanted == dayOfMonth)) {
                return true;
            }
        }
        return false;
    }

    private boolean matchesWeekday(DayOfWeek day) {
        for (WeekdayNum entry : rule.byDay()) {
            if (entry.day() == day) {
                return true;
            }
        }
        return false;
    }

    private static boolean inMonth(java.util.List<Integer> byMonth, int month) {
        return byMonth.isEmpty() || byMonth.contains(month);
    }

    private static DayOfWeek weekdayOf(long epochDay) {
        return DayOfWeek.of((int) Math.floorMod(epochDay + 3, 7L) + 1); // 1970-01-01 was a Thursday
    }

    private static long[] concat(long[] a, long[] b) {
        long[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    Frequency frequency() {
        return rule.frequency();
    }
}
