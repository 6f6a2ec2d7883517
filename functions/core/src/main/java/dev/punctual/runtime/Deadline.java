package dev.punctual.runtime;

import dev.punctual.ledger.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The time budget of one invocation.
 *
 * @param workUntil when the function itself must be done (Lambda's deadline less a safety margin); no
 *     new occurrence starts after {@code workUntil - minimumPerOccurrence}
 * @param leaseUntil the latest end of a lease taken by this invocation: a little after the function is
 *     certainly gone, so a successor never overlaps it, and never later, so it does not wait a full lease
 * @param leaseTerm how long a claim's lease lasts unless renewed; by default the whole invocation (no
 *     renewal ever needed), shorter for hosts that want a dead runner's lease freed sooner: the runtime
 *     then renews it each time the job polls with less than half a term left
 * @param skewTolerance how far runners' clocks may disagree: a lease ends this long after its holder's
 *     deadline, so a successor whose clock runs ahead by less never starts before the holder stopped
 */
public record Deadline(Instant workUntil, Instant leaseUntil, Duration leaseTerm, Duration skewTolerance) {

    /** Kept free at the end of an invocation to write the completion and the result. */
    public static final Duration SAFETY = Duration.ofSeconds(2);

    /** An occurrence is not started with less than this left. */
    public static final Duration MINIMUM_PER_OCCURRENCE = Duration.ofSeconds(3);

    public Deadline {
        Objects.requireNonNull(workUntil, "workUntil");
        Objects.requireNonNull(leaseUntil, "leaseUntil");
        Lease.requireSkewTolerance(skewTolerance);
        // A job stops a tolerance and the completion's safety before its lease ends: a term no longer
        // than both leaves it no time to work.
        if (leaseTerm == null || leaseTerm.compareTo(skewTolerance.plus(SAFETY)) <= 0) {
            throw new IllegalArgumentException("leaseTerm must be longer than the skew tolerance " + skewTolerance
                    + " plus the completion's " + SAFETY + ", was " + leaseTerm);
        }
    }

    /** From a Lambda's remaining time, read at the start of the invocation, with the default skew tolerance. */
    public static Deadline fromRemaining(Instant now, Duration remaining) {
        return fromRemaining(now, remaining, Lease.DEADLINE_MARGIN);
    }

    /** As {@link #fromRemaining(Instant, Duration)} with a chosen tolerance (see {@link Lease#MAX_SKEW_TOLERANCE}). */
    public static Deadline fromRemaining(Instant now, Duration remaining, Duration skewTolerance) {
        // The lease's end is the ledger's rule (remaining time plus the tolerance), not a second one here.
        Instant leaseUntil = Lease.deadline(now, remaining, skewTolerance);
        return new Deadline(
                now.plus(remaining).minus(SAFETY), leaseUntil, remaining.plus(skewTolerance), skewTolerance);
    }

    /**
     * Claims take leases of {@code term} (never past {@link #leaseUntil}); a job running longer keeps
     * its lease by polling {@link dev.punctual.job.JobContext#shouldStop} (the runtime renews it) or
     * through {@link dev.punctual.job.JobContext#extendLease}, or loses it after one term.
     */
    public Deadline withLeaseTerm(Duration term) {
        return new Deadline(workUntil, leaseUntil, term, skewTolerance);
    }

    /** The end of a lease taken at {@code now}. */
    public Instant leaseFor(Instant now) {
        Instant byTerm = now.plus(leaseTerm);
        return byTerm.isBefore(leaseUntil) ? byTerm : leaseUntil;
    }

    public boolean allowsAnotherOccurrence(Instant now) {
        return now.plus(MINIMUM_PER_OCCURRENCE).isBefore(workUntil);
    }
}
