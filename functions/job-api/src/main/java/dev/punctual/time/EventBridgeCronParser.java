package dev.punctual.time;

import java.util.BitSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code cron(minutes hours day-of-month month day-of-week year)} as EventBridge Scheduler reads it. */
final class EventBridgeCronParser {
    private EventBridgeCronParser() {}

    private static final String FORM = "cron(minutes hours day-of-month month day-of-week year)";
    private static final Pattern NEAREST_WEEKDAY = Pattern.compile("(\\d{1,2})W");
    private static final Pattern LAST_OF_WEEKDAY = Pattern.compile("([0-9A-Za-z]{1,3})L");
    private static final Pattern LAST_MINUS = Pattern.compile("L-\\d{1,2}W?");
    private static final Pattern NTH_OF_WEEKDAY = Pattern.compile("([0-9A-Za-z]{1,3})#(\\d{1,2})");

    static CronExpression parse(String text) {
        if (!text.endsWith(")")) {
            throw new ScheduleExpressionException("schedule", text, "does not end with )", FORM);
        }
        String[] fields =
                text.substring("cron(".length(), text.length() - 1).strip().split("\\s+");
        if (fields.length != 6) {
            throw wrongFieldCount(text, fields.length);
        }
        return new CronExpression(
                text,
                CronDialect.EVENTBRIDGE,
                FieldSet.of(CronField.MINUTE, CronSyntax.MINUTES.parse(fields[0])),
                FieldSet.of(CronField.HOUR, CronSyntax.HOURS.parse(fields[1])),
                days(fields[2], fields[4]),
                FieldSet.of(CronField.MONTH, CronSyntax.MONTH.parse(fields[3])),
                FieldSet.of(CronField.YEAR, CronSyntax.YEAR.parse(fields[5])));
    }

    private static ScheduleExpressionException wrongFieldCount(String text, int count) {
        String problem = switch (count) {
            case 7 ->
                "has 7 fields; a seconds field would run more often than once a minute, which"
                        + " EventBridge Scheduler cannot do";
            case 5 -> "has 5 fields; EventBridge cron needs a year field (* for every year)";
            default -> "has " + count + " fields";
        };
        return new ScheduleExpressionException("schedule", text, problem, FORM);
    }

    private static DayRule days(String dayOfMonth, String dayOfWeek) {
        boolean monthDaysAny = dayOfMonth.equals("?");
        boolean weekDaysAny = dayOfWeek.equals("?");
        if (monthDaysAny == weekDaysAny) {
            throw new ScheduleExpressionException(
                    "day-of-month and day-of-week",
                    dayOfMonth + " " + dayOfWeek,
                    monthDaysAny ? "are both ?" : "are both given",
                    "exactly one of them is ?, e.g. cron(0 9 * * ? *) or cron(0 9 ? * MON-FRI *)");
        }
        return weekDaysAny ? monthDays(dayOfMonth) : weekDays(dayOfWeek);
    }

    private static DayRule monthDays(String text) {
        if (text.equals("L")) {
            return new DayRule.LastDayOfMonth();
        }
        if (text.equals("LW")) {
            return new DayRule.LastWeekdayOfMonth();
        }
        Matcher nearest = NEAREST_WEEKDAY.matcher(text);
        if (nearest.matches()) {
            return new DayRule.NearestWeekday(CronSyntax.EVENTBRIDGE_DAY_OF_MONTH.value(nearest.group(1), text));
        }
        if (LAST_MINUS.matcher(text).matches()) {
            throw CronSyntax.EVENTBRIDGE_DAY_OF_MONTH.refuse(
                    text,
                    "counts days back from the last (Quartz's L-n), which EventBridge Scheduler does not document"
                            + " and Punctual therefore cannot preview; use L (last day) or LW (last weekday)");
        }
        if (text.indexOf('L') >= 0 || text.indexOf('W') >= 0) {
            throw CronSyntax.EVENTBRIDGE_DAY_OF_MONTH.refuse(text, "uses L or W inside a list or range");
        }
        FieldSet days = FieldSet.of(CronField.DAY_OF_MONTH, CronSyntax.EVENTBRIDGE_DAY_OF_MONTH.parse(text));
        return days.isFull() ? new DayRule.EveryDay() : new DayRule.MonthDays(days);
    }

    private static DayRule weekDays(String text) {
        FieldSyntax syntax = CronSyntax.EVENTBRIDGE_DAY_OF_WEEK;
        if (text.equals("L")) {
            return new DayRule.WeekDays(FieldSet.of(CronField.DAY_OF_WEEK, single(DayRule.SATURDAY)));
        }
        if (text.indexOf('#') >= 0) {
            return nthOfWeekday(text, syntax);
        }
        Matcher last = LAST_OF_WEEKDAY.matcher(text);
        if (last.matches()) {
            return new DayRule.LastOfWeekday(syntax.value(last.group(1), text) - 1);
        }
        BitSet raw = syntax.parse(text);
        FieldSet weekdays = FieldSet.of(CronField.DAY_OF_WEEK, raw.get(1, 8));
        return weekdays.isFull() ? new DayRule.EveryDay() : new DayRule.WeekDays(weekdays);
    }

    private static DayRule nthOfWeekday(String text, FieldSyntax syntax) {
        Matcher nth = NTH_OF_WEEKDAY.matcher(text);
        if (!nth.matches()) {
            throw syntax.refuse(text, "uses # other than alone as weekday#n (one # expression per field)");
        }
        int n = Integer.parseInt(nth.group(2));
        if (n < 1 || n > 5) {
            throw syntax.refuse(text, "asks for occurrence " + n + " of a weekday in a month (1-5 exist)");
        }
        return new DayRule.NthOfWeekday(syntax.value(nth.group(1), text) - 1, n);
    }

    private static BitSet single(int value) {
        BitSet set = new BitSet();
        set.set(value);
        return set;
    }
}
