package dev.punctual.ledger.spi;

/** How a completion transaction ended. */
public enum Commit {
    COMMITTED,
    /** The lease was no longer ours (another owner, or expired): nothing was written. */
    LEASE_LOST,
    /** The cursor had already passed the occurrence: retry without the advance. */
    CURSOR_AHEAD
}
