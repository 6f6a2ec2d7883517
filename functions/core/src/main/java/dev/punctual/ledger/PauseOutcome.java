package dev.punctual.ledger;

/** What {@code punctual pause} did (decision 0040). */
public sealed interface PauseOutcome {

    /**
     * The mark is on the item; {@code after} is the item as the pause's write left it, so the operator
     * sees a run still in flight (a claim decided before the pause runs to its end).
     */
    record Set(LockState after) implements PauseOutcome {

        /** A lease held and its slot in flight: that run continues; the pause refuses the next claim. */
        public boolean runInFlight(java.time.Instant now) {
            return after.leaseHeldAt(now)
                    && after.slot() != null
                    && after.slot().running();
        }
    }

    /** Another pause holds the item: it is kept (resume it first); {@code standing} says whose. */
    record AlreadyPaused(PauseMark standing) implements PauseOutcome {}
}
