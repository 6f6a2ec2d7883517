package dev.punctual.time;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An RFC 5545 recurrence in the schedule's zone, written on one line:
 * {@code DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO} (decision 0038).
 *
 * <p>DTSTART is a local time of the schedule's zone (no {@code Z}, no {@code TZID}); the rule is the subset
 * FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, BYDAY (ordinals for MONTHLY and YEARLY), BYMONTHDAY,
 * BYMONTH, BYSETPOS, BYHOUR, BYMINUTE, COUNT, UNTIL and WKST. Everything else is refused by name. DTSTART must
 * be one of the rule's own local times: RFC 5545 leaves the set of a rule whose DTSTART it does not produce
 * undefined, and the libraries disagree on it, so Punctual refuses it and names the first local time that is.
 *
 * <p>Deployed as {@link #containingCron()}, the narrowest EventBridge cron that fires at every occurrence
 * ({@link Schedule#deployment()}); the runtime answers that cron's other deliveries without a ledger write
 * (decision 0049).
 *
 * @param start DTSTART, a local time with seconds 00
 * @param byDay BYDAY entries; an ordinal of 0 means every such weekday of the period
 * @param count COUNT, or 0 when the rule has none
 * @param until UNTIL, or null
 */
public record RecurrenceExpression(
        String source,
        LocalDateTime start,
        Frequency frequency,
        int interval,
        List<WeekdayNum> byDay,
        List<Integer> byMonthDay,
        List<Integer> byMonth,
        List<Integer> bySetPos,
        List<Integer> byHour,
        List<Integer> byMinute,
        int count,
        Until until,
        DayOfWeek weekStart)
        implements ScheduleExpression {

    /** The FREQ values Punctual accepts: none more often than daily (a cron says minutes and hours). */
    public enum Frequency {
        DAILY,
        WEEKLY,
        MONTHLY,
        YEARLY
    }

    /** A BYDAY entry: {@code MO} (ordinal 0), {@code 1MO}, {@code -1FR}. */
    public record WeekdayNum(int ordinal, DayOfWeek day) {
        @Override
        public String toString() {
            return (ordinal == 0 ? "" : Integer.toString(ordinal)) + code(day);
        }
    }

    /**
     * UNTIL: inclusive, a local time of the schedule's zone, or (with {@code utc}) a UTC time compared with
     * each occurrence's instant.
     */
    public record Until(LocalDateTime time, boolean utc) {
        @Override
        public String toString() {
            return BASIC.format(time) + (utc ? "Z" : "");
        }
    }

    /** The most occurrences a COUNT may ask for. */
    static final int MAX_COUNT = 100_000;

    /** The largest INTERVAL. */
    static final int MAX_INTERVAL = 1_000;

    static final String FORM = "DTSTART:yyyymmddThhmm00 RRULE:FREQ=DAILY|WEEKLY|MONTHLY|YEARLY;..."
            + " (e.g. DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO)";
    private static final String PARTS =
            "FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, BYHOUR, BYMINUTE, COUNT, UNTIL, WKST";
    private static final DateTimeFormatter BASIC =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss").withResolverStyle(ResolverStyle.STRICT);
    private static final Pattern DATE_TIME = Pattern.compile("\\d{8}T\\d{6}Z?");
    private static final Pattern BY_DAY = Pattern.compile("([+-]?\\d{1,2})?([A-Z]{2})");
    private static final Pattern NUMBER = Pattern.compile("[+-]?\\d{1,6}");
    private static final List<String> CODES = List.of("MO", "TU", "WE", "TH", "FR", "SA", "SU");

    public RecurrenceExpression {
        byDay = List.copyOf(byDay);
        byMonthDay = List.copyOf(byMonthDay);
        byMonth = List.copyOf(byMonth);
        bySetPos = List.copyOf(bySetPos);
        byHour = List.copyOf(byHour);
        byMinute = List.copyOf(byMinute);
    }

    static String code(DayOfWeek day) {
        return CODES.get(day.getValue() - 1);
    }

    /**
     * The narrowest cron containing the rule ({@link #containingCron()}), for display; what is deployed
     * ({@link Schedule#deployment()}) also ends its years with the last occurrence of a COUNT.
     */
    @Override
    public String toEventBridge() {
        return containingCron().toEventBridge();
    }

    @Override
    public String describe() {
        StringBuilder text = new StringBuilder("every ");
        String unit = switch (frequency) {
            case DAILY -> "day";
            case WEEKLY -> "week";
            case MONTHLY -> "month";
            case YEARLY -> "year";
        };
        text.append(interval == 1 ? unit : interval + " " + unit + "s");
        if (!byMonth.isEmpty()) {
            text.append(" in month ").append(join(byMonth));
        }
        if (!byMonthDay.isEmpty()) {
            text.append(" on day ").append(join(byMonthDay));
        }
        if (!byDay.isEmpty()) {
            text.append(byMonthDay.isEmpty() ? " on " : " and ").append(join(byDay));
        }
        if (!bySetPos.isEmpty()) {
            text.append(", position ")
                    .append(join(bySetPos))
                    .append(" in each ")
                    .append(unit);
        }
        List<Integer> hours = byHour.isEmpty() ? List.of(start.getHour()) : byHour;
        List<Integer> minutes = byMinute.isEmpty() ? List.of(start.getMinute()) : byMinute;
        text.append(" at ");
        if (hours.size() * minutes.size() <= 4) {
            List<String> times = new ArrayList<>();
            hours.forEach(h -> minutes.forEach(m -> times.add(String.format(Locale.ROOT, "%02d:%02d", h, m))));
            text.append(String.join(", ", times));
        } else {
            text.append("hour ").append(join(hours)).append(", minute ").append(join(minutes));
        }
        text.append(" from ").append(start);
        if (count > 0) {
            text.append(", ").append(count).append(count == 1 ? " time" : " times");
        }
        if (until != null) {
            text.append(", until ").append(until.time()).append(until.utc() ? "Z" : "");
        }
        return text.toString();
    }

    private static String join(List<?> values) {
        return String.join(",", values.stream().map(String::valueOf).toList());
    }

    /**
     * The narrowest EventBridge cron, in the same zone, that fires at every occurrence of this rule (and
     * at others when the rule has an INTERVAL above 1, BYSETPOS, a COUNT, or a day rule cron cannot say).
     * Its local-time fields contain the rule's, and both resolve a local time in the zone by the same
     * daylight-saving rule, so each occurrence's instant is one of the cron's.
     */
    public CronExpression containingCron() {
        int lastYear = until == null
                ? LocalCalendar.LAST_YEAR
                : Math.min(LocalCalendar.LAST_YEAR, until.time().getYear() + (until.utc() ? 1 : 0));
        return containingCron(lastYear);
    }

    /** Whether a COUNT or an UNTIL ends the rule. */
    public boolean ends() {
        return count > 0 || until != null;
    }

    /**
     * {@link #containingCron()} with its years ending at {@code lastYear}: the local year of the rule's last
     * occurrence, which only the zone can tell for a COUNT ({@link Schedule#deployment()}).
     */
    CronExpression containingCron(int lastYear) {
        List<Integer> minutes = byMinute.isEmpty() ? List.of(start.getMinute()) : byMinute;
        List<Integer> hours = byHour.isEmpty() ? List.of(start.getHour()) : byHour;
        String dayOfMonth = "?";
        String dayOfWeek = "?";
        boolean noDayParts = byDay.isEmpty() && byMonthDay.isEmpty();
        if (!byDay.isEmpty()) {
            dayOfWeek = cronWeekdays();
        } else if (!byMonthDay.isEmpty()) {
            dayOfMonth = cronMonthDays();
        } else if (frequency == Frequency.WEEKLY) {
            dayOfWeek = cronWeekday(start.getDayOfWeek());
        } else if (frequency == Frequency.MONTHLY || frequency == Frequency.YEARLY) {
            dayOfMonth = Integer.toString(start.getDayOfMonth());
        } else {
            dayOfMonth = "*";
        }
        String months = "*";
        if (!byMonth.isEmpty()) {
            months = join(byMonth);
        } else if (frequency == Frequency.YEARLY && noDayParts) {
            months = Integer.toString(start.getMonthValue());
        } else if (frequency == Frequency.MONTHLY && 12 % interval == 0 && interval > 1) {
            TreeSet<Integer> every = new TreeSet<>();
            for (int m = start.getMonthValue(); every.add((m - 1) % 12 + 1); m += interval) {}
            months = join(new ArrayList<>(every));
        }
        String years = start.getYear() == lastYear ? Integer.toString(lastYear) : start.getYear() + "-" + lastYear;
        return EventBridgeCronParser.parse(
                "cron(" + String.join(" ", join(minutes), join(hours), dayOfMonth, months, dayOfWeek, years) + ")");
    }

    /** BYDAY as cron day-of-week: one ordinal entry exactly ({@code 2#1}, {@code 6L}), else the weekdays. */
    private String cronWeekdays() {
        if (byDay.size() == 1 && byMonthDay.isEmpty() && monthlyOrdinals()) {
            WeekdayNum only = byDay.getFirst();
            int number = only.day().getValue() % 7 + 1; // EventBridge: 1 = SUN ... 7 = SAT
            if (only.ordinal() >= 1 && only.ordinal() <= 5) {
                return number + "#" + only.ordinal();
            }
            if (only.ordinal() == -1) {
                return number + "L";
            }
        }
        TreeSet<DayOfWeek> days = new TreeSet<>();
        byDay.forEach(d -> days.add(d.day()));
        return String.join(
                ",", days.stream().map(RecurrenceExpression::cronWeekday).toList());
    }

    /** Whether BYDAY's ordinals count within a month (MONTHLY, or YEARLY with BYMONTH). */
    boolean monthlyOrdinals() {
        return frequency == Frequency.MONTHLY || (frequency == Frequency.YEARLY && !byMonth.isEmpty());
    }

    private String cronMonthDays() {
        TreeSet<Integer> positive = new TreeSet<>();
        boolean last = false;
        for (int day : byMonthDay) {
            if (day > 0) {
                positive.add(day);
            } else if (day == -1) {
                last = true;
            } else {
                return "*"; // -2 and beyond: cron has no "n days before the last"
            }
        }
        if (last) {
            return positive.isEmpty() ? "L" : "*"; // EventBridge has no L inside a list
        }
        return join(new ArrayList<>(positive));
    }

    private static String cronWeekday(DayOfWeek day) {
        return CronSyntax.WEEKDAYS.get(day.getValue() % 7);
    }

    /** Whether the text is meant as a recurrence: it starts with DTSTART or RRULE (any case). */
    static boolean looksLikeRecurrence(String trimmed) {
        String upper = trimmed.toUpperCase(Locale.ROOT);
        return upper.startsWith("DTSTART")
                || upper.startsWith("RRULE")
                || upper.startsWith("EXDATE")
                || upper.startsWith("RDATE");
    }

    // ---------------------------------------------------------------- parsing

    /**
     * Parses the one-line form.
     *
     * @throws ScheduleExpressionException naming the part that is wrong and what is accepted
     */
    static RecurrenceExpression parse(String text) {
        String dtstart = null;
        String rrule = null;
        for (String token : text.strip().split("\\s+")) {
            int colon = token.indexOf(':');
            String name = (colon < 0 ? token : token.substring(0, colon)).toUpperCase(Locale.ROOT);
            String value = colon < 0 ? null : token.substring(colon + 1).toUpperCase(Locale.ROOT);
            if (name.startsWith("DTSTART;")) {
                throw new ScheduleExpressionException(
                        "DTSTART",
                        token,
                        "has a parameter (" + name.substring("DTSTART;".length())
                                + "); DTSTART is a local date-time in the job's zone",
                        "DTSTART:yyyymmddThhmm00, e.g. DTSTART:20270104T090000");
            }
            switch (name) {
                case "DTSTART" -> {
                    if (dtstart != null) {
                        throw new ScheduleExpressionException("DTSTART", text, "is given twice", FORM);
                    }
                    dtstart = value == null ? "" : value;
                }
                case "RRULE" -> {
                    if (rrule != null) {
                        throw new ScheduleExpressionException(
                                "RRULE", text, "is given twice; Punctual takes one rule per schedule", FORM);
                    }
                    rrule = value == null ? "" : value;
                }
                case "RDATE", "EXDATE", "EXRULE" ->
                    throw new ScheduleExpressionException(
                            name,
                            token,
                            "is not supported (one DTSTART and one RRULE; to leave dates out use a calendar or"
                                    + " a blackout, decision 0034)",
                            FORM);
                default ->
                    throw new ScheduleExpressionException(
                            "schedule", token, "is neither DTSTART:... nor RRULE:...", FORM);
            }
        }
        if (dtstart == null) {
            throw new ScheduleExpressionException(
                    "DTSTART", text, "is missing; a recurrence needs its first local time", FORM);
        }
        if (rrule == null) {
            throw new ScheduleExpressionException("RRULE", text, "is missing", FORM);
        }
        LocalDateTime start = start(dtstart);
        return rule(text, start, rrule);
    }

    private static LocalDateTime start(String value) {
        String accepted = "DTSTART:yyyymmddThhmm00, a local date-time in the job's zone from 1970 to 2199"
                + " (e.g. DTSTART:20270104T090000)";
        if (value.endsWith("Z")) {
            throw new ScheduleExpressionException(
                    "DTSTART",
                    value,
                    "is a UTC time; DTSTART is a local time of the job's zone, so it keeps its local time"
                            + " across daylight-saving changes",
                    accepted);
        }
        LocalDateTime start = dateTime("DTSTART", value, accepted);
        if (start.getSecond() != 0) {
            throw new ScheduleExpressionException(
                    "DTSTART", value, "has seconds; Punctual runs on whole minutes", accepted);
        }
        if (start.getYear() < LocalCalendar.FIRST_YEAR || start.getYear() > LocalCalendar.LAST_YEAR) {
            throw new ScheduleExpressionException("DTSTART", value, "is out of range", accepted);
        }
        return start;
    }

    private static LocalDateTime dateTime(String part, String value, String accepted) {
        if (!DATE_TIME.matcher(value).matches()) {
            throw new ScheduleExpressionException(
                    part,
                    value,
                    value.matches("\\d{8}") ? "is a date without a time" : "is not a date-time in basic form",
                    accepted);
        }
        try {
            return LocalDateTime.parse(value.substring(0, 15), BASIC);
        } catch (DateTimeParseException e) {
            throw new ScheduleExpressionException(part, value, "is not a valid date-time", accepted);
        }
    }

    private static RecurrenceExpression rule(String source, LocalDateTime start, String rule) {
        Map<String, String> parts = new LinkedHashMap<>();
        for (String part : rule.split(";", -1)) {
            int equals = part.indexOf('=');
            if (part.isEmpty() || equals <= 0) {
                throw new ScheduleExpressionException(
                        "RRULE",
                        rule,
                        part.isEmpty()
                                ? "has an empty part (two ; in a row, or one at an end)"
                                : "has a part without NAME=value: " + part,
                        "NAME=value parts separated by ;, from " + PARTS);
            }
            String name = part.substring(0, equals);
            String value = part.substring(equals + 1);
            refuseOutsideSubset(name, part);
            if (parts.put(name, value) != null) {
                throw new ScheduleExpressionException(
                        name, rule, "is given twice", "each of " + PARTS + " at most once");
            }
        }
        String freqText = parts.get("FREQ");
        if (freqText == null) {
            throw new ScheduleExpressionException(
                    "FREQ", rule, "is missing", "FREQ=DAILY, FREQ=WEEKLY, FREQ=MONTHLY or FREQ=YEARLY");
        }
        Frequency frequency = frequency(freqText);
        int interval = parts.containsKey("INTERVAL") ? number("INTERVAL", parts.get("INTERVAL"), 1, MAX_INTERVAL) : 1;
        List<WeekdayNum> byDay = parts.containsKey("BYDAY") ? byDay(parts.get("BYDAY"), frequency, parts) : List.of();
        List<Integer> byMonthDay = numbers(parts, "BYMONTHDAY", 1, 31, true);
        List<Integer> byMonth = numbers(parts, "BYMONTH", 1, 12, false);
        List<Integer> bySetPos = numbers(parts, "BYSETPOS", 1, 366, true);
        List<Integer> byHour = numbers(parts, "BYHOUR", 0, 23, false);
        List<Integer> byMinute = numbers(parts, "BYMINUTE", 0, 59, false);
        if (frequency == Frequency.WEEKLY && !byMonthDay.isEmpty()) {
            throw new ScheduleExpressionException(
                    "BYMONTHDAY",
                    parts.get("BYMONTHDAY"),
                    "is not allowed with FREQ=WEEKLY (RFC 5545)",
                    "BYMONTHDAY with FREQ=DAILY, MONTHLY or YEARLY; BYDAY with FREQ=WEEKLY");
        }
        if (frequency == Frequency.YEARLY && !byMonthDay.isEmpty() && byMonth.isEmpty()) {
            // RFC 5545 takes what a rule leaves open from DTSTART, which would be DTSTART's month; other
            // implementations (python-dateutil) read every month. Punctual refuses rather than guess.
            throw new ScheduleExpressionException(
                    "BYMONTHDAY",
                    parts.get("BYMONTHDAY"),
                    "with FREQ=YEARLY needs BYMONTH: RFC 5545 implementations disagree whether it means"
                            + " DTSTART's month or every month",
                    "BYMONTH with it (BYMONTH=" + start.getMonthValue() + " for DTSTART's month), or FREQ=MONTHLY"
                            + " for every month");
        }
        if (!byMonthDay.isEmpty() && byDay.stream().anyMatch(d -> d.ordinal() != 0)) {
            throw new ScheduleExpressionException(
                    "BYDAY",
                    parts.get("BYDAY"),
                    "has an ordinal together with BYMONTHDAY, which RFC 5545 does not define clearly",
                    "BYDAY without ordinals (MO,FR) with BYMONTHDAY, or BYDAY with ordinals (1MO, -1FR) alone");
        }
        if (!bySetPos.isEmpty()
                && byDay.isEmpty()
                && byMonthDay.isEmpty()
                && byMonth.isEmpty()
                && byHour.isEmpty()
                && byMinute.isEmpty()) {
            throw new ScheduleExpressionException(
                    "BYSETPOS",
                    parts.get("BYSETPOS"),
                    "needs another BY part to choose from (RFC 5545)",
                    "BYSETPOS with BYDAY, BYMONTHDAY, BYMONTH, BYHOUR or BYMINUTE");
        }
        int count = parts.containsKey("COUNT") ? number("COUNT", parts.get("COUNT"), 1, MAX_COUNT) : 0;
        Until until = parts.containsKey("UNTIL") ? until(parts.get("UNTIL")) : null;
        if (count > 0 && until != null) {
            throw new ScheduleExpressionException(
                    "COUNT",
                    "COUNT=" + parts.get("COUNT") + ";UNTIL=" + parts.get("UNTIL"),
                    "is given with UNTIL (RFC 5545 allows one of them)",
                    "COUNT or UNTIL, not both");
        }
        if (until != null && !until.utc() && until.time().isBefore(start)) {
            throw new ScheduleExpressionException(
                    "UNTIL",
                    parts.get("UNTIL"),
                    "is before DTSTART " + BASIC.format(start),
                    "an UNTIL at or after DTSTART");
        }
        DayOfWeek weekStart = parts.containsKey("WKST") ? weekday("WKST", parts.get("WKST")) : DayOfWeek.MONDAY;
        RecurrenceExpression expression = new RecurrenceExpression(
                source,
                start,
                frequency,
                interval,
                byDay,
                byMonthDay,
                byMonth,
                bySetPos,
                byHour,
                byMinute,
                count,
                until,
                weekStart);
        RecurrenceRule generator = new RecurrenceRule(expression);
        if (!generator.produces(start)) {
            String first = generator
                    .firstLocalAtOrAfter(start)
                    .map(t -> "such as " + BASIC.format(t) + ", the first after it")
                    .orElse("(this rule produces none before 2200)");
            throw new ScheduleExpressionException(
                    "DTSTART",
                    BASIC.format(start),
                    "is not one of the rule's own times (RFC 5545 leaves such a recurrence undefined)",
                    "a DTSTART the RRULE produces, " + first);
        }
        return expression;
    }

    private static void refuseOutsideSubset(String name, String part) {
        String accepted = "the parts " + PARTS;
        switch (name) {
            case "FREQ",
                    "INTERVAL",
                    "BYDAY",
                    "BYMONTHDAY",
                    "BYMONTH",
                    "BYSETPOS",
                    "BYHOUR",
                    "BYMINUTE",
                    "COUNT",
                    "UNTIL",
                    "WKST" -> {}
            case "BYSECOND" ->
                throw new ScheduleExpressionException(
                        name, part, "is not supported: Punctual runs on whole minutes", accepted);
            case "BYWEEKNO", "BYYEARDAY" ->
                throw new ScheduleExpressionException(name, part, "is not in Punctual's RRULE subset", accepted);
            case "RSCALE", "SKIP" ->
                throw new ScheduleExpressionException(
                        name, part, "is not in Punctual's RRULE subset (RFC 7529 is not supported)", accepted);
            default -> throw new ScheduleExpressionException(name, part, "is not an RRULE part", accepted);
        }
    }

    private static Frequency frequency(String value) {
        String accepted = "FREQ=DAILY, FREQ=WEEKLY, FREQ=MONTHLY or FREQ=YEARLY";
        return switch (value) {
            case "DAILY" -> Frequency.DAILY;
            case "WEEKLY" -> Frequency.WEEKLY;
            case "MONTHLY" -> Frequency.MONTHLY;
            case "YEARLY" -> Frequency.YEARLY;
            case "SECONDLY" ->
                throw new ScheduleExpressionException(
                        "FREQ",
                        value,
                        "would run more often than once a minute, which EventBridge Scheduler cannot do",
                        accepted);
            case "MINUTELY", "HOURLY" ->
                throw new ScheduleExpressionException(
                        "FREQ",
                        value,
                        "is not in Punctual's RRULE subset; every N minutes or hours is a cron (*/15 * * * *,"
                                + " 0 */2 * * *), or FREQ=DAILY with BYHOUR and BYMINUTE",
                        accepted);
            default -> throw new ScheduleExpressionException("FREQ", value, "is not a frequency", accepted);
        };
    }

    private static int number(String part, String value, int min, int max) {
        if (!value.matches("\\d{1,9}") || Integer.parseInt(value) < min || Integer.parseInt(value) > max) {
            throw new ScheduleExpressionException(
                    part,
                    value,
                    "is not a whole number from " + min + " to " + max,
                    part + "=n with n from " + min + " to " + max);
        }
        return Integer.parseInt(value);
    }

    private static List<Integer> numbers(Map<String, String> parts, String part, int min, int max, boolean negative) {
        String value = parts.get(part);
        if (value == null) {
            return List.of();
        }
        String accepted = part + "="
                + (negative ? min + " to " + max + " or -" + max + " to -" + min : min + " to " + max)
                + ", a comma-separated list (e.g. " + part + "=" + (negative ? min + ",-" + min : min + "," + (min + 1))
                + ")";
        TreeSet<Integer> seen = new TreeSet<>();
        List<Integer> values = new ArrayList<>();
        for (String item : value.split(",", -1)) {
            if (!NUMBER.matcher(item).matches()) {
                throw new ScheduleExpressionException(
                        part, value, "has \"" + item + "\", which is not a number", accepted);
            }
            int n = Integer.parseInt(item.startsWith("+") ? item.substring(1) : item);
            int magnitude = Math.abs(n);
            if ((n < 0 && !negative) || magnitude < min || magnitude > max || (negative && n == 0)) {
                throw new ScheduleExpressionException(part, value, "has " + item + ", which is out of range", accepted);
            }
            if (!seen.add(n)) {
                throw new ScheduleExpressionException(part, value, "lists " + item + " twice", accepted);
            }
            values.add(n);
        }
        Collections.sort(values);
        return values;
    }

    private static List<WeekdayNum> byDay(String value, Frequency frequency, Map<String, String> parts) {
        boolean ordinals = frequency == Frequency.MONTHLY || frequency == Frequency.YEARLY;
        boolean inMonth = frequency == Frequency.MONTHLY || parts.containsKey("BYMONTH");
        int maxOrdinal = inMonth ? 5 : 53;
        String accepted = ordinals
                ? "BYDAY=MO,TU,...,SU, each with an optional ordinal from 1 to " + maxOrdinal + " or -" + maxOrdinal
                        + " to -1 (1MO is the first Monday, -1FR the last Friday"
                        + (inMonth ? " of the month" : " of the year") + ")"
                : "BYDAY=MO,TU,WE,TH,FR,SA,SU (ordinals such as 1MO only with FREQ=MONTHLY or YEARLY)";
        List<WeekdayNum> days = new ArrayList<>();
        for (String item : value.split(",", -1)) {
            Matcher matcher = BY_DAY.matcher(item);
            if (!matcher.matches() || !CODES.contains(matcher.group(2))) {
                throw new ScheduleExpressionException(
                        "BYDAY", value, "has \"" + item + "\", which is not a weekday", accepted);
            }
            int ordinal = 0;
            if (matcher.group(1) != null) {
                String number = matcher.group(1);
                ordinal = Integer.parseInt(number.startsWith("+") ? number.substring(1) : number);
                if (!ordinals) {
                    throw new ScheduleExpressionException(
                            "BYDAY", value, "has an ordinal (" + item + ") with FREQ=" + frequency, accepted);
                }
                if (ordinal == 0 || Math.abs(ordinal) > maxOrdinal) {
                    throw new ScheduleExpressionException(
                            "BYDAY", value, "has " + item + ", whose ordinal is out of range", accepted);
                }
            }
            WeekdayNum day = new WeekdayNum(ordinal, DayOfWeek.of(CODES.indexOf(matcher.group(2)) + 1));
            if (days.contains(day)) {
                throw new ScheduleExpressionException("BYDAY", value, "lists " + item + " twice", accepted);
            }
            days.add(day);
        }
        return days;
    }

    private static DayOfWeek weekday(String part, String value) {
        if (!CODES.contains(value)) {
            throw new ScheduleExpressionException(
                    part, value, "is not a weekday", part + "=MO, TU, WE, TH, FR, SA or SU");
        }
        return DayOfWeek.of(CODES.indexOf(value) + 1);
    }

    private static Until until(String value) {
        String accepted = "UNTIL=yyyymmddThhmmss (a local time of the job's zone) or yyyymmddThhmmssZ (UTC),"
                + " from 1970 to 2199";
        LocalDateTime time = dateTime("UNTIL", value, accepted);
        if (time.getYear() < LocalCalendar.FIRST_YEAR || time.getYear() > LocalCalendar.LAST_YEAR) {
            throw new ScheduleExpressionException("UNTIL", value, "is out of range", accepted);
        }
        return new Until(time, value.endsWith("Z"));
    }
}
