package dev.punctual.runtime;

/** The reason codes of outcome lines and handler results; docs/runbook.md says what to do about each. */
public final class Reasons {

    /** PASS: the job ran and its fenced completion committed. */
    public static final String OK = "OK";
    /** SKIP: a duplicate delivery of an occurrence that already succeeded . */
    public static final String ALREADY_DONE = "ALREADY_DONE";
    /** SKIP: another live invocation is running this very occurrence. */
    public static final String IN_PROGRESS_ELSEWHERE = "IN_PROGRESS_ELSEWHERE";
    /** SKIP: the lock group stayed busy for the stage's lock wait; catch-up takes the occurrence later. */
    public static final String LOCK_BUSY = "LOCK_BUSY";
    /** SKIP: maintenance holds the lock group. */
    public static final String MAINTENANCE = "MAINTENANCE";
    /** SKIP: a destructive job in a stage that does not allow them. */
    public static final String DESTRUCTIVE_DISABLED = "DESTRUCTIVE_DISABLED";
    /** SKIP: a scheduled delivery arrived while the stage's schedules are switched off. */
    public static final String SCHEDULES_DISABLED = "SCHEDULES_DISABLED";
    /**
     * SKIP: a scheduler's delivery of a time that is not an occurrence of the job's current schedule,
     * usually the replaced expression's delivery (or its retry) arriving after a deploy changed the
     * schedule. Recorded on that time's run item, never run; no attempt, the cursor stays.
     */
    public static final String NOT_AN_OCCURRENCE = "NOT_AN_OCCURRENCE";
    /** SKIP, not recorded: too little time left in this invocation; the next trigger catches up. */
    public static final String DEADLINE = "DEADLINE";
    /** SKIP, not recorded: an earlier occurrence of this invocation failed; order is kept for its retry. */
    public static final String EARLIER_FAILED = "EARLIER_FAILED";
    /** SKIP, not recorded: a replay's dry run; nothing was claimed or written. */
    public static final String DRY_RUN = "DRY_RUN";
    /** FAIL: the job threw; the error summary is on the run item and the line. */
    public static final String JOB_ERROR = "JOB_ERROR";
    /** FAIL: the lease was no longer ours at completion; whatever the job did is not reported a success. */
    public static final String FENCED = "FENCED";
    /** FAIL: the occurrence failed as often as the job allows; only a forced manual run retries it. */
    public static final String ATTEMPTS_EXHAUSTED = "ATTEMPTS_EXHAUSTED";

    private Reasons() {}
}
