package dev.punctual.ledger;

import java.time.Duration;
import java.time.Instant;

/**
 * A held lock-group lease. The fence grows by one with every acquisition of the group, so a job can
 * stamp its downstream writes with it and a store can reject writes from an older holder.
 */
public record Lease(String group, String ownerToken, long fence, Instant acquiredAt, Instant expiresAt) {

    /**
     * Added to the Lambda's remaining time: the lease must not end while the invocation can still run,
     * and the remaining time is read a little before the conditional write is evaluated. Two seconds
     * covers that gap and ordinary clock skew between the Lambda host and DynamoDB's clock.
     */
    public static final Duration DEADLINE_MARGIN = Duration.ofSeconds(2);

    /** The lease end for an invocation that has {@code remaining} time left at {@code now}. */
    public static Instant deadline(Instant now, Duration remaining) {
        return now.plus(remaining).plus(DEADLINE_MARGIN);
    }
}
