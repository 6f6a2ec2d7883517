package dev.punctual.ledger;

/**
 * What started a run: the scheduler, an operator by hand, or an explicit replay of a range; and, among the
 * scheduler's, an older occurrence a later delivery ran first (catch-up), which is told apart only so a
 * history can say so (issue 38; decision 0046): it is {@link #fromSchedule() from the schedule} in every
 * rule, moves the cursor and is retried as the delivery's own occurrence is.
 */
public enum Trigger {
    SCHEDULED,
    MANUAL,
    REPLAY,
    /** An older occurrence run by a later occurrence's delivery, before it (catch-up). */
    CATCH_UP;

    /** The scheduler's: its delivered occurrence or one that delivery caught up. Every rule asks this. */
    public boolean fromSchedule() {
        return this == SCHEDULED || this == CATCH_UP;
    }
}
