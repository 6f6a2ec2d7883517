package dev.punctual.ledger;

/** Why an occurrence was not run; every refusal is recorded with one of these. */
public enum SkipReason {
    MAINTENANCE,
    LOCK_BUSY,
    DISABLED,
    REFUSED
}
