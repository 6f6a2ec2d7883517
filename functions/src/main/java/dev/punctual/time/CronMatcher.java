package dev.punctual.time;

import static dev.punctual.time.LocalCalendar.FIRST_YEAR;
import static dev.punctual.time.LocalCalendar.LAST_YEAR;
import static dev.punctual.time.LocalCalendar.NONE;

import java.time.LocalDate;

/**
 * Finds matching local date-times of a cron expression field by field: a field that cannot match
 * moves the next-larger field on and resets the smaller ones, so a search costs a handful of bit
 * operations per field, never a scan of minutes. Zones are not its business (see {@link CronWalk}).
 * Immutable and safe to share.
 */
final class CronMatcher {
    private final long minutes;
    private final long hours;
    private final long months;
    private final FieldSet years;
    /** Day masks for every month shape: index firstWeekday * 4 + (length - 28). */
    private final long[] dayTable = new long[28];

    CronMatcher(CronExpression cron) {
        this.minutes = cron.minutes().firstWord();
        this.hours = cron.hours().firstWord();
        this.months = cron.months().firstWord();
        this.years = cron.years();
        for (int weekday = 0; weekday < 7; weekday++) {
            for (int length = 28; length <= 31; length++) {
                dayTable[weekday * 4 + length - 28] = cron.days().daysIn(length, weekday) & 0xFFFF_FFFFL;
            }
        }
    }

    private long days(int year, int month) {
        int firstWeekday = LocalCalendar.weekday(LocalCalendar.epochDay(year, month, 1));
        return dayTable[firstWeekday * 4 + LocalCalendar.monthLength(year, month) - 28];
    }

    /** The first matching local minute at or after {@code localSeconds}, or {@link LocalCalendar#NONE}. */
    long next(long localSeconds) {
        long minuteStart = Math.ceilDiv(localSeconds, 60) * 60;
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(minuteStart, 86_400));
        int secondOfDay = Math.floorMod(minuteStart, 86_400);
        int y = date.getYear(), mo = date.getMonthValue(), d = date.getDayOfMonth();
        int h = secondOfDay / 3600, mi = secondOfDay % 3600 / 60;
        if (y < FIRST_YEAR) {
            y = FIRST_YEAR;
            mo = d = 1;
            h = mi = 0;
        }
        while (y <= LAST_YEAR) {
            int year = years.next(y);
            if (year < 0) {
                return NONE;
            }
            if (year != y) {
                y = year;
                mo = d = 1;
                h = mi = 0;
            }
            int month = nextBit(months, mo);
            if (month < 0) {
                y++;
                mo = d = 1;
                h = mi = 0;
                continue;
            }
            if (month != mo) {
                mo = month;
                d = 1;
                h = mi = 0;
            }
            int day = nextBit(days(y, mo), d);
            if (day < 0) {
                mo++;
                d = 1;
                h = mi = 0;
                continue;
            }
            if (day != d) {
                d = day;
                h = mi = 0;
            }
            int hour = nextBit(hours, h);
            if (hour < 0) {
                d++;
                h = mi = 0;
                continue;
            }
            if (hour != h) {
                h = hour;
                mi = 0;
            }
            int minute = nextBit(minutes, mi);
            if (minute < 0) {
                h++;
                mi = 0;
                continue;
            }
            return LocalCalendar.localSeconds(y, mo, d, h, minute);
        }
        return NONE;
    }

    /** The last matching local minute at or before {@code localSeconds}, or {@link LocalCalendar#NONE}. */
    long previous(long localSeconds) {
        long minuteStart = Math.floorDiv(localSeconds, 60) * 60;
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(minuteStart, 86_400));
        int secondOfDay = Math.floorMod(minuteStart, 86_400);
        int y = date.getYear(), mo = date.getMonthValue(), d = date.getDayOfMonth();
        int h = secondOfDay / 3600, mi = secondOfDay % 3600 / 60;
        if (y > LAST_YEAR) {
            y = LAST_YEAR;
            mo = 12;
            d = 31;
            h = 23;
            mi = 59;
        }
        while (y >= FIRST_YEAR) {
            int year = years.previous(y);
            if (year < 0) {
                return NONE;
            }
            if (year != y) {
                y = year;
                mo = 12;
                d = 31;
                h = 23;
                mi = 59;
            }
            int month = previousBit(months, mo);
            if (month < 0) {
                y--;
                mo = 12;
                d = 31;
                h = 23;
                mi = 59;
                continue;
            }
            if (month != mo) {
                mo = month;
                d = 31;
                h = 23;
                mi = 59;
            }
            int day = previousBit(days(y, mo), d);
            if (day < 0) {
                mo--;
                d = 31;
                h = 23;
                mi = 59;
                continue;
            }
            if (day != d) {
                d = day;
                h = 23;
                mi = 59;
            }
            int hour = previousBit(hours, h);
            if (hour < 0) {
                d--;
                h = 23;
                mi = 59;
                continue;
            }
            if (hour != h) {
                h = hour;
                mi = 59;
            }
            int minute = previousBit(minutes, mi);
            if (minute < 0) {
                h--;
                mi = 59;
                continue;
            }
            return LocalCalendar.localSeconds(y, mo, d, h, minute);
        }
        return NONE;
    }

    private static int nextBit(long bits, int from) {
        if (from > 63) {
            return -1;
        }
        long rest = bits & (-1L << from);
        return rest == 0 ? -1 : Long.numberOfTrailingZeros(rest);
    }

    private static int previousBit(long bits, int from) {
        if (from < 0) {
            return -1;
        }
        long rest = bits & (-1L >>> (63 - Math.min(from, 63)));
        return rest == 0 ? -1 : 63 - Long.numberOfLeadingZeros(rest);
    }
}
