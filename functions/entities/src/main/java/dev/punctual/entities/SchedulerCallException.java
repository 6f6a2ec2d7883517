package dev.punctual.entities;

import dev.punctual.PunctualException;

/**
 * A call to EventBridge Scheduler failed (after the SDK's own retries): the message names the operation
 * and the schedule it was for, then the SDK's reason. Nothing is known about whether a write that failed
 * so took effect; a put may be repeated, it is idempotent.
 */
public final class SchedulerCallException extends PunctualException {
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final String schedule;

    SchedulerCallException(String operation, String schedule, Throwable cause) {
        super("EventBridge Scheduler " + operation + " of " + schedule + " failed: " + cause.getMessage(), cause);
        this.operation = operation;
        this.schedule = schedule;
    }

    SchedulerCallException(String operation, String schedule, String problem) {
        super("EventBridge Scheduler " + operation + " of " + schedule + " failed: " + problem);
        this.operation = operation;
        this.schedule = schedule;
    }

    /** The API operation, e.g. {@code CreateSchedule}. */
    public String operation() {
        return operation;
    }

    /** {@code group/name} of the schedule, or {@code group/prefix*} for a listing. */
    public String schedule() {
        return schedule;
    }
}
