package dev.punctual.runtime;

import dev.punctual.ledger.Lease;
import java.time.Duration;
import java.time.Instant;

/**
 * The time budget of one invocation.
 *
 * @param workUntil when the function itself must be done (Lambda's deadline less a safety margin); no
 *     new occurrence starts after {@code workUntil - minimumPerOccurrence}
 * @param leaseUntil when leases taken by this invocation end: a little after the function is certainly
 *     gone, so a successor never overlaps it, and never later, so it does not wait a full lease
 */
public record Deadline(Instant workUntil, Instant leaseUntil) {

    /** Kept free at the end of an invocation to write the completion and the result. */
    public static final Duration SAFETY = Duration.ofSeconds(2);

    /** An occurrence is not started with less than this left. */
    public static final Duration MINIMUM_PER_OCCURRENCE = Duration.ofSeconds(3);

    /** From a Lambda's remaining time, read at the start of the invocation. */
    public static Deadline fromRemaining(Instant now, Duration remaining) {
        // The lease's end is the ledger's rule (remaining time plus its stated margin), not a second one here.
        return new Deadline(now.plus(remaining).minus(SAFETY), Lease.deadline(now, remaining));
    }

    public boolean allowsAnotherOccurrence(Instant now) {
        return now.plus(MINIMUM_PER_OCCURRENCE).isBefore(workUntil);
    }
}
