package dev.punctual.entities;

import dev.punctual.PunctualException;

/**
 * A schedule in the entity group that does not read back as the entity schedule its name stands for:
 * edited by hand into something Punctual would refuse, or not written by Punctual at all. The message
 * names the schedule ({@code group/name}), the field of it that is wrong and what is accepted; the
 * schedule is left as it is. A put of the entity's desired schedule replaces one that is Punctual's
 * (its input names the job and the entity); one that is not is never overwritten, only deleted.
 *
 * <p>A fault of the stage's state, not of the caller's input (the CLI exits 1 on it, not 2): what the
 * caller asked for was valid, what was found in the group is not.
 */
public final class UnreadableScheduleException extends PunctualException {
    private static final long serialVersionUID = 1L;

    private final String schedule;
    private final String field;

    UnreadableScheduleException(String schedule, String field, String problem) {
        super("schedule " + schedule + ": " + field + ": " + problem);
        this.schedule = schedule;
        this.field = field;
    }

    /** {@code group/name}. */
    public String schedule() {
        return schedule;
    }

    /** The schedule's field that is wrong, e.g. {@code Target.Input.zone} or {@code ScheduleExpression}. */
    public String field() {
        return field;
    }
}
