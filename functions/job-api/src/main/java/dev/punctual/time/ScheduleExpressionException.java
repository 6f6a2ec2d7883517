package dev.punctual.time;

import dev.punctual.RefusedInputException;

/**
 * A schedule expression or time zone that Punctual refuses. The message always names the part that
 * is wrong, what was given and what would be accepted, because the reader is usually fixing a job
 * declaration or a CLI argument and needs nothing else.
 */
public final class ScheduleExpressionException extends RefusedInputException {
    private static final long serialVersionUID = 1L;

    private final String part;
    private final String given;

    public ScheduleExpressionException(String part, String given, String problem, String accepted) {
        super(part + ": \"" + given + "\" " + problem + "; accepted: " + accepted);
        this.part = part;
        this.given = given;
    }

    /** The part of the schedule that is wrong, e.g. {@code day-of-week} or {@code time-zone}. */
    public String part() {
        return part;
    }

    /** The text that was given for that part. */
    public String given() {
        return given;
    }
}
