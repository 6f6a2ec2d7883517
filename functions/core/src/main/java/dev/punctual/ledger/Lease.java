package dev.punctual.ledger;

import dev.punctual.stage.SkewTolerance;
import java.time.Duration;
import java.time.Instant;

/**
 * A held lock-group lease. The fence grows by one with every acquisition of the group by a job (or an
 * entity), so a job can stamp its downstream writes with it and a store can reject writes from an older
 * holder. A maintenance hold carries {@link #NO_FENCE}: it writes nothing a fence guards, and its writes
 * (an operator's) leave the stored fence as it is (decision 0037).
 */
public record Lease(String group, String ownerToken, long fence, Instant acquiredAt, Instant expiresAt) {

    /** The fence of a maintenance hold: none (a job's or an entity's fence is at least 1). */
    public static final long NO_FENCE = 0;

    /** Whether this lease has a fence of its own (a job's or an entity's), not a hold's {@link #NO_FENCE}. */
    public boolean fenced() {
        return fence != NO_FENCE;
    }

    /**
     * The default clock-skew tolerance, added to the Lambda's remaining time: the lease must not end
     * while the invocation can still run. Every lease condition compares the stored end with the
     * caller's own clock ({@code :now}), never DynamoDB's, so what matters is how far two runners'
     * clocks disagree: a successor whose clock runs ahead of the holder's by less than this never takes
     * the lease before the holder's deadline. Lambda hosts keep time through the Amazon Time Sync
     * Service (well under a millisecond of error); two seconds leaves room for the remaining time
     * being read a little before the claim is evaluated. Measured (docs/ledger.md): the Jepsen-style
     * suite with clocks up to 2 s apart found no overlapping holders; 5 s apart, it found overlaps.
     */
    public static final Duration DEADLINE_MARGIN = SkewTolerance.DEFAULT_VALUE;

    /**
     * The largest tolerance accepted: a dead holder's lease outlives it by the tolerance, so a larger
     * one delays every takeover after a crash by as much (and Lambda's own retries come after one
     * minute). The stage config and the function's environment use the same bound ({@link SkewTolerance}).
     */
    public static final Duration MAX_SKEW_TOLERANCE = SkewTolerance.MAX;

    /**
     * The lease end for an invocation that has {@code remaining} time left at {@code now}, with a skew
     * tolerance ({@link #DEADLINE_MARGIN} unless the stage chose another).
     */
    public static Instant deadline(Instant now, Duration remaining, Duration skewTolerance) {
        return now.plus(remaining).plus(requireSkewTolerance(skewTolerance));
    }

    /** A tolerance between zero and {@link #MAX_SKEW_TOLERANCE}; otherwise the error names both bounds. */
    public static Duration requireSkewTolerance(Duration tolerance) {
        if (tolerance == null || tolerance.isNegative() || tolerance.compareTo(MAX_SKEW_TOLERANCE) > 0) {
            throw new IllegalArgumentException(
                    "skewTolerance must be between PT0S and " + MAX_SKEW_TOLERANCE + ", was " + tolerance);
        }
        return tolerance;
    }
}
