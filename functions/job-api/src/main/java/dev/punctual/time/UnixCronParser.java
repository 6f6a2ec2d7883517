package dev.punctual.time;

import java.util.BitSet;

/** Parses the five-field Unix cron people write: {@code minute hour day-of-month month day-of-week}. */
final class UnixCronParser {
    private static final java.util.regex.Pattern OPEN_STEP = java.util.regex.Pattern.compile("[0-9A-Za-z]{1,3}/\\d+");

    private UnixCronParser() {}

    static CronExpression parse(String text) {
        String[] fields = text.split("\\s+");
        if (fields.length != 5) {
            throw wrongFieldCount(text, fields.length);
        }
        if (text.indexOf('?') >= 0 || text.indexOf('#') >= 0) {
            throw new ScheduleExpressionException(
                    "schedule",
                    text,
                    "uses ? or #, which only EventBridge cron understands",
                    "five Unix fields, or cron(minutes hours day-of-month month day-of-week year)");
        }
        return new CronExpression(
                text,
                CronDialect.UNIX,
                FieldSet.of(CronField.MINUTE, CronSyntax.MINUTES.parse(fields[0])),
                FieldSet.of(CronField.HOUR, CronSyntax.HOURS.parse(fields[1])),
                days(fields[2], fields[4]),
                FieldSet.of(CronField.MONTH, CronSyntax.MONTH.parse(fields[3])),
                FieldSet.all(CronField.YEAR));
    }

    private static ScheduleExpressionException wrongFieldCount(String text, int count) {
        String problem = count == 6
                ? "has 6 fields; a leading seconds field would run more often than once a minute, which"
                        + " EventBridge Scheduler cannot do"
                : "has " + count + " fields";
        return new ScheduleExpressionException(
                "schedule",
                text,
                problem,
                "five Unix fields (minute hour day-of-month month day-of-week), or"
                        + " cron(minutes hours day-of-month month day-of-week year)");
    }

    /**
     * Unix cron runs when day-of-month OR day-of-week matches if both are restricted; EventBridge can
     * only restrict one. Refusing is the only exact translation.
     */
    private static DayRule days(String dayOfMonth, String dayOfWeek) {
        boolean monthDaysAny = dayOfMonth.equals("*");
        boolean weekDaysAny = dayOfWeek.equals("*");
        if (!monthDaysAny && !weekDaysAny) {
            throw new ScheduleExpressionException(
                    "day-of-month and day-of-week",
                    dayOfMonth + " " + dayOfWeek,
                    "restricts both; Unix cron runs when either matches, which EventBridge cannot express",
                    "one of them restricted and * in the other; for 'either', declare two schedules, e.g. '0 9 "
                            + dayOfMonth + " * *' and '0 9 * * " + dayOfWeek + "'");
        }
        if (!monthDaysAny) {
            FieldSet days = FieldSet.of(CronField.DAY_OF_MONTH, CronSyntax.UNIX_DAY_OF_MONTH.parse(dayOfMonth));
            return days.isFull() ? new DayRule.EveryDay() : new DayRule.MonthDays(days);
        }
        if (!weekDaysAny) {
            FieldSet weekdays = FieldSet.of(CronField.DAY_OF_WEEK, sundayIsZero(dayOfWeek));
            return weekdays.isFull() ? new DayRule.EveryDay() : new DayRule.WeekDays(weekdays);
        }
        return new DayRule.EveryDay();
    }

    private static BitSet sundayIsZero(String dayOfWeek) {
        for (String element : dayOfWeek.split(",", -1)) {
            if (OPEN_STEP.matcher(element).matches()) {
                // Unix crons disagree where an open start/step ends in day-of-week: at 7 (Sunday again,
                // vixie's 0-7 range) or at 6 (croniter). 1/2 is MON,WED,FRI,SUN to one and MON,WED,FRI to
                // the other, so it is refused rather than read one way.
                throw CronSyntax.UNIX_DAY_OF_WEEK.refuse(
                        dayOfWeek,
                        "steps from " + element.substring(0, element.indexOf('/'))
                                + " without an end, which Unix crons read differently (ending on Saturday or on"
                                + " Sunday); write the days as a list (MON,WED,FRI) or a range with a step (1-5/2)");
            }
        }
        BitSet raw = CronSyntax.UNIX_DAY_OF_WEEK.parse(dayOfWeek);
        if (raw.get(7)) {
            raw.clear(7);
            raw.set(0);
        }
        return raw;
    }
}
