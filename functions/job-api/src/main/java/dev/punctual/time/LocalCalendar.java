package dev.punctual.time;

/** Calendar arithmetic on plain ints and "local epoch seconds" (a local date-time read as if it were UTC). */
final class LocalCalendar {
    private LocalCalendar() {}

    static final long NONE = Long.MIN_VALUE;
    static final int FIRST_YEAR = 1970;
    static final int LAST_YEAR = 2199;
    private static final long DAYS_0000_TO_1970 = 719_528L;

    /** Days since 1970-01-01 (as java.time.LocalDate#toEpochDay, without allocating). */
    static long epochDay(int year, int month, int day) {
        long y = year;
        long total = 365 * y + (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400;
        total += (367L * month - 362) / 12 + day - 1;
        if (month > 2) {
            total -= isLeap(year) ? 1 : 2;
        }
        return total - DAYS_0000_TO_1970;
    }

    static boolean isLeap(int year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    static int monthLength(int year, int month) {
        return switch (month) {
            case 2 -> isLeap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** 0 = Sunday ... 6 = Saturday; 1970-01-01 was a Thursday. */
    static int weekday(long epochDay) {
        return (int) Math.floorMod(epochDay + 4, 7L);
    }

    static long localSeconds(int year, int month, int day, int hour, int minute) {
        return epochDay(year, month, day) * 86_400 + hour * 3_600L + minute * 60L;
    }

    static long localSeconds(java.time.LocalDateTime local) {
        return local.toEpochSecond(java.time.ZoneOffset.UTC);
    }

    static java.time.LocalDateTime localDateTime(long localSeconds) {
        return java.time.LocalDateTime.ofEpochSecond(localSeconds, 0, java.time.ZoneOffset.UTC);
    }
}
