package dev.punctual.ledger;

/** Where an occurrence stands. ABANDONED is a failed attempt whose Lambda died holding the lease. */
public enum RunStatus {
    RUNNING,
    SUCCEEDED,
    FAILED,
    ABANDONED,
    SKIPPED,
    MISSED;

    /** Another attempt may claim the occurrence (within the job's max attempts for failures). */
    public boolean retryable() {
        return this == FAILED || this == ABANDONED;
    }
}
