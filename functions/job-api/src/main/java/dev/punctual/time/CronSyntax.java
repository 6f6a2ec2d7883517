package dev.punctual.time;

import java.util.List;

/** The field syntaxes of both dialects, with the accepted-values text their errors quote. */
final class CronSyntax {
    private CronSyntax() {}

    private static final String LISTS = ", lists (1,2), ranges (1-5) and steps (*/15, 0/15, 0-30/10)";
    static final List<String> MONTHS =
            List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
    static final List<String> WEEKDAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

    static final FieldSyntax MINUTES = new FieldSyntax("minutes", 0, 59, 0, List.of(), true, "0-59, *" + LISTS);
    static final FieldSyntax HOURS = new FieldSyntax("hours", 0, 23, 0, List.of(), true, "0-23, *" + LISTS);
    static final FieldSyntax MONTH = new FieldSyntax("month", 1, 12, 1, MONTHS, true, "1-12 or JAN-DEC, *" + LISTS);

    static final FieldSyntax UNIX_DAY_OF_MONTH = new FieldSyntax(
            "day-of-month",
            1,
            31,
            0,
            List.of(),
            true,
            "1-31, *" + LISTS + " (? L W are EventBridge syntax: write cron(...))");
    static final FieldSyntax UNIX_DAY_OF_WEEK = new FieldSyntax(
            "day-of-week",
            0,
            7,
            0,
            WEEKDAYS,
            true,
            "0-7 or SUN-SAT (0 and 7 are Sunday), *" + LISTS + " (? L # are EventBridge syntax: write cron(...))");

    static final FieldSyntax EVENTBRIDGE_DAY_OF_MONTH = new FieldSyntax(
            "day-of-month",
            1,
            31,
            0,
            List.of(),
            true,
            "1-31, *, ?, L, LW, nW (15W), lists (1,15), ranges (1-5) and steps (1/2)");
    static final FieldSyntax EVENTBRIDGE_DAY_OF_WEEK = new FieldSyntax(
            "day-of-week",
            1,
            7,
            1,
            WEEKDAYS,
            false,
            "1-7 or SUN-SAT (1 is Sunday), *, ?, L, nL (6L = last Friday), n#k (3#2 = second Tuesday),"
                    + " lists (MON,WED) and ranges (MON-FRI)");
    static final FieldSyntax YEAR = new FieldSyntax("year", 1970, 2199, 0, List.of(), true, "1970-2199, *" + LISTS);
}
