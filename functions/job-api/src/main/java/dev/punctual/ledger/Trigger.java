package dev.punctual.ledger;

/** What started a run: the scheduler, an operator by hand, or an explicit replay of a range. */
public enum Trigger {
    SCHEDULED,
    MANUAL,
    REPLAY
}
