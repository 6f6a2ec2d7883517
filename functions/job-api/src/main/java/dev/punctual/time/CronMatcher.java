package dev.punctual.time;

import static dev.punctual.time.LocalCalendar.FIRST_YEAR;
import static dev.punctual.time.LocalCalendar.LAST_YEAR;
import static dev.punctual.time.LocalCalendar.NONE;

import java.time.LocalDate;

/**
 * Finds matching local date-times of a cron expression field by field, like an odometer: the search
 * holds (year, month, day, hour, minute); a field that cannot match from its current value carries
 * into the next larger field and resets the smaller ones. A search costs a few bit operations per
 * field, never a scan of minutes. Zones are not its business (see {@link CronWalk}). Immutable and
 * safe to share.
 */
final class CronMatcher {
    private static final int YEAR = 0;
    private static final int MINUTE = 4;
    private static final int[] FIRST = {FIRST_YEAR, 1, 1, 0, 0};
    private static final int[] LAST = {LAST_YEAR, 12, 31, 23, 59};

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

    /** The first matching local minute at or after {@code localSeconds}, or {@link LocalCalendar#NONE}. */
    long next(long localSeconds) {
        int[] at = fields(Math.ceilDiv(localSeconds, 60) * 60);
        if (at[YEAR] < FIRST_YEAR) {
            System.arraycopy(FIRST, 0, at, 0, FIRST.length);
        }
        int field = YEAR;
        while (field <= MINUTE) {
            int found = nextMatch(field, at);
            if (found < 0) {
                if (field == YEAR) {
                    return NONE;
                }
                field--;
                at[field]++;
                System.arraycopy(FIRST, field + 1, at, field + 1, MINUTE - field);
            } else {
                if (found != at[field]) {
                    at[field] = found;
                    System.arraycopy(FIRST, field + 1, at, field + 1, MINUTE - field);
                }
                field++;
            }
        }
        return LocalCalendar.localSeconds(at[0], at[1], at[2], at[3], at[4]);
    }

    /** The last matching local minute at or before {@code localSeconds}, or {@link LocalCalendar#NONE}. */
    long previous(long localSeconds) {
        int[] at = fields(Math.floorDiv(localSeconds, 60) * 60);
        if (at[YEAR] > LAST_YEAR) {
            System.arraycopy(LAST, 0, at, 0, LAST.length);
        }
        int field = YEAR;
        while (field <= MINUTE) {
            int found = previousMatch(field, at);
            if (found < 0) {
                if (field == YEAR) {
                    return NONE;
                }
                field--;
                at[field]--;
                System.arraycopy(LAST, field + 1, at, field + 1, MINUTE - field);
            } else {
                if (found != at[field]) {
                    at[field] = found;
                    System.arraycopy(LAST, field + 1, at, field + 1, MINUTE - field);
                }
                field++;
            }
        }
        return LocalCalendar.localSeconds(at[0], at[1], at[2], at[3], at[4]);
    }

    /** The smallest matching value of a field >= its current value, the larger fields fixed; or -1. */
    private int nextMatch(int field, int[] at) {
        return switch (field) {
            case 0 -> at[0] > LAST_YEAR ? -1 : years.next(at[0]);
            case 1 -> nextBit(months, at[1]);
            case 2 -> nextBit(days(at[0], at[1]), at[2]);
            case 3 -> nextBit(hours, at[3]);
            default -> nextBit(minutes, at[4]);
        };
    }

    /** The largest matching value of a field <= its current value, the larger fields fixed; or -1. */
    private int previousMatch(int field, int[] at) {
        return switch (field) {
            case 0 -> at[0] < FIRST_YEAR ? -1 : years.previous(at[0]);
            case 1 -> previousBit(months, at[1]);
            case 2 -> previousBit(days(at[0], at[1]), at[2]);
            case 3 -> previousBit(hours, at[3]);
            default -> previousBit(minutes, at[4]);
        };
    }

    private long days(int year, int month) {
        int firstWeekday = LocalCalendar.weekday(LocalCalendar.epochDay(year, month, 1));
        return dayTable[firstWeekday * 4 + LocalCalendar.monthLength(year, month) - 28];
    }

    /** {year, month, day, hour, minute} of a local minute. */
    private static int[] fields(long minuteStart) {
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(minuteStart, 86_400));
        int secondOfDay = Math.floorMod(minuteStart, 86_400);
        return new int[] {
            date.getYear(), date.getMonthValue(), date.getDayOfMonth(), secondOfDay / 3600, secondOfDay % 3600 / 60
        };
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
