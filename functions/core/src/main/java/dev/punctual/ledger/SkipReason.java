package dev.punctual.ledger;

/** Why an occurrence was not run; every refusal is recorded with one of these. */
public enum SkipReason {
    MAINTENANCE,
    LOCK_BUSY,
    DISABLED,
    REFUSED,
    /**
     * The runtime claimed a delivered occurrence, found older occurrences to catch up first, and gave
     * the claim back so they run in order; the occurrence stays claimable.
     */
    DEFERRED,
    /**
     * The entity was deleted (its ledger item carries a tombstone, decision 0029, 8): a delivery in
     * flight after the delete is recorded, never run, until a put of the entity clears the tombstone.
     */
    ENTITY_DELETED,
    /**
     * The occurrence came (delivered or caught up) later than its job's start deadline (decision 0032):
     * recorded with the latest start and the lateness, never run, counted as missed.
     */
    DEADLINE_PASSED,
    /**
     * An operator skipped the occurrence ahead of time ({@code punctual skip}, decision 0033): recorded
     * with who and why, never run, not counted as missed.
     */
    OPERATOR_SKIPPED,
    /**
     * An operator paused the job, its lock group or the entity ({@code punctual pause}, decision 0040):
     * recorded with who, why, since and until, never run, not counted as missed.
     */
    PAUSED,
    /** A date the job's calendar excludes (decision 0034): never run, not counted as missed. */
    CALENDAR,
    /** A blackout window (decision 0034): never run, not counted as missed. */
    BLACKOUT,
    /** A date past the calendar's range (decision 0034): never run, counted as missed. */
    CALENDAR_ENDED,
    /**
     * A maintenance condition of the catalog could not be evaluated (decision 0036, 5): never run blind,
     * caught up once it can be; alarmed.
     */
    MAINTENANCE_UNKNOWN,
    /**
     * The scheduler's or Lambda's retries gave the delivery up and it was dead-lettered (decision 0044):
     * recorded by the dead-letter consumer, never run there; a replay or a catch-up may run it.
     */
    UNDELIVERED,

    /**
     * The job needs an operator's approval of each occurrence and this one had none when it was delivered
     * or caught up (decision 0041): never run, not counted as missed, alarmed. An approval written later
     * lets a manual {@code run --at T}, or a later delivery's catch-up within the start deadline, run it.
     */
    UNAPPROVED
}
