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
    DEFERRED
}
