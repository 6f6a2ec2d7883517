package dev.punctual.time;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rate(N unit)}: every N minutes, hours or days of elapsed time, whatever the clocks on the
 * wall do. Occurrences are counted from {@link #ANCHOR}, so they are the same on every machine and in
 * every replay.
 *
 * <p>The unit is singular exactly when N is 1 ({@code rate(1 hour)}, {@code rate(2 hours)}), as
 * EventBridge Scheduler requires; {@code rate(1 minutes)} is refused here rather than at deploy time.
 */
public record RateExpression(String source, long value, RateUnit unit) implements ScheduleExpression {

    /** Occurrences of every rate are whole multiples of the period after this instant. */
    public static final java.time.Instant ANCHOR = java.time.Instant.EPOCH;

    private static final Pattern FORM = Pattern.compile("rate\\(\\s*(\\S+)\\s+(\\S+)\\s*\\)");
    private static final String ACCEPTED = "rate(1 minute|hour|day) or rate(N minutes|hours|days) with N >= 2";
    private static final long MAX_VALUE = 1_000_000;

    public enum RateUnit {
        MINUTES(Duration.ofMinutes(1)),
        HOURS(Duration.ofHours(1)),
        DAYS(Duration.ofDays(1));

        private final Duration length;

        RateUnit(Duration length) {
            this.length = length;
        }

        String word(long value) {
            String plural = name().toLowerCase(java.util.Locale.ROOT);
            return value == 1 ? plural.substring(0, plural.length() - 1) : plural;
        }
    }

    public Duration period() {
        return unit.length.multipliedBy(value);
    }

    /**
     * The UTC cron expression that fires at exactly this rate's occurrences, when there is one: a
     * period that divides an hour (minutes) or a day (hours), or one day. EventBridge starts a rate at
     * its schedule's creation and refuses a {@code StartDate} more than five minutes in the past, so a
     * deployed {@code rate()} cannot be anchored at {@link #ANCHOR}; the equivalent cron can.
     */
    public Optional<String> asUtcCron() {
        long minutes = period().toMinutes();
        if (minutes < 60 && 60 % minutes == 0) {
            return Optional.of("cron(" + (minutes == 1 ? "*" : "0/" + minutes) + " * * * ? *)");
        }
        long hours = minutes / 60;
        if (minutes % 60 == 0 && hours <= 24 && 24 % hours == 0) {
            String field = hours == 1 ? "*" : hours == 24 ? "0" : "0/" + hours;
            return Optional.of("cron(0 " + field + " * * ? *)");
        }
        return Optional.empty();
    }

    @Override
    public String toEventBridge() {
        return "rate(" + value + " " + unit.word(value) + ")";
    }

    @Override
    public String describe() {
        return "every " + (value == 1 ? unit.word(1) : value + " " + unit.word(value))
                + " of elapsed time, counted from " + ANCHOR;
    }

    static RateExpression parse(String text) {
        Matcher matcher = FORM.matcher(text);
        if (!matcher.matches()) {
            throw new ScheduleExpressionException("rate", text, "is not understood", ACCEPTED);
        }
        long value = value(matcher.group(1), text);
        RateUnit unit = unit(matcher.group(2), text);
        if (!unit.word(value).equals(matcher.group(2))) {
            throw new ScheduleExpressionException(
                    "rate unit",
                    text,
                    "writes '" + matcher.group(2) + "' where EventBridge requires '" + unit.word(value) + "'",
                    ACCEPTED);
        }
        return new RateExpression(text, value, unit);
    }

    private static long value(String text, String whole) {
        if (!dev.punctual.AsciiDigits.matches(text, 7)) {
            throw new ScheduleExpressionException("rate value", whole, "is not a whole number", ACCEPTED);
        }
        long value = Long.parseLong(text);
        if (value < 1 || value > MAX_VALUE) {
            throw new ScheduleExpressionException(
                    "rate value", whole, "is out of range", "1 to " + MAX_VALUE + " in " + ACCEPTED);
        }
        return value;
    }

    private static RateUnit unit(String word, String whole) {
        return switch (word) {
            case "minute", "minutes" -> RateUnit.MINUTES;
            case "hour", "hours" -> RateUnit.HOURS;
            case "day", "days" -> RateUnit.DAYS;
            case "second", "seconds" ->
                throw new ScheduleExpressionException(
                        "rate unit",
                        whole,
                        "runs more often than once a minute, which EventBridge cannot do",
                        ACCEPTED);
            default -> throw new ScheduleExpressionException("rate unit", whole, "is not a unit", ACCEPTED);
        };
    }
}
