package dev.punctual.time;

/**
 * A parsed schedule expression in any accepted dialect. Parsing normalises it into one model, so the
 * deployed EventBridge expression, the catch-up planner and the {@code plan} preview all read the
 * same thing.
 */
public sealed interface ScheduleExpression permits CronExpression, RateExpression, AtExpression, RecurrenceExpression {

    /** The text as it was written. */
    String source();

    /** The expression EventBridge Scheduler is given, e.g. {@code cron(0 9 ? * MON-FRI *)}. */
    String toEventBridge();

    /** A short English reading for people, e.g. {@code at 09:00 on MON-FRI}. */
    String describe();

    /**
     * Parses {@code cron(...)}, {@code rate(...)}, {@code at(...)}, an RFC 5545 recurrence
     * ({@code DTSTART:... RRULE:...}) or, for anything else, a Unix five-field cron expression.
     *
     * @throws ScheduleExpressionException naming the part that is wrong and what is accepted
     */
    static ScheduleExpression parse(String text) {
        if (text == null || text.isBlank()) {
            throw new ScheduleExpressionException(
                    "schedule",
                    text == null ? "" : text,
                    "is empty",
                    "Unix cron (0 9 * * 1-5), cron(...), rate(...), at(...) or DTSTART:... RRULE:...");
        }
        String trimmed = text.strip();
        if (trimmed.startsWith("cron(")) {
            return EventBridgeCronParser.parse(trimmed);
        }
        if (trimmed.startsWith("rate(")) {
            return RateExpression.parse(trimmed);
        }
        if (trimmed.startsWith("at(")) {
            return AtExpression.parse(trimmed);
        }
        if (RecurrenceExpression.looksLikeRecurrence(trimmed)) {
            return RecurrenceExpression.parse(trimmed);
        }
        return UnixCronParser.parse(trimmed);
    }
}
