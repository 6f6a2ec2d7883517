package dev.punctual.time;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code at(yyyy-mm-ddThh:mm:ss)}: once, at a local date-time of the schedule's zone. */
public record AtExpression(String source, LocalDateTime localTime) implements ScheduleExpression {

    private static final Pattern FORM = Pattern.compile("at\\((.*)\\)");
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withResolverStyle(ResolverStyle.STRICT);
    private static final String ACCEPTED = "at(yyyy-mm-ddThh:mm:ss) with a year from 1970 to 2199";

    @Override
    public String toEventBridge() {
        return "at(" + FORMAT.format(localTime) + ")";
    }

    @Override
    public String describe() {
        return "once at " + FORMAT.format(localTime) + " local time";
    }

    static AtExpression parse(String text) {
        Matcher matcher = FORM.matcher(text);
        if (!matcher.matches()) {
            throw new ScheduleExpressionException("at", text, "is not understood", ACCEPTED);
        }
        LocalDateTime local;
        try {
            local = LocalDateTime.parse(matcher.group(1).strip(), FORMAT);
        } catch (DateTimeParseException e) {
            throw new ScheduleExpressionException("at", text, "is not a valid local date-time", ACCEPTED);
        }
        if (local.getYear() < 1970 || local.getYear() > 2199) {
            throw new ScheduleExpressionException("at", text, "is out of range", ACCEPTED);
        }
        return new AtExpression(text, local);
    }
}
