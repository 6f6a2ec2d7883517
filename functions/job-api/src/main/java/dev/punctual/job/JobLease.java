package dev.punctual.job;

import java.time.Duration;
import java.time.Instant;

/**
 * The lock-group lease a job runs under, as the job sees it: when it must be done, and a fenced way to
 * ask for more time. The runtime implements it over the ledger; only the holder of the current fence
 * can extend, so a runner whose lease was taken over learns it here and stops.
 */
public interface JobLease {

    /**
     * When the job must be done: the lease's end less the clock-skew tolerance, never past the
     * invocation's end. The runtime's lease renews itself when this is read with less than half of its
     * term left (one fenced write, none while the lease lasts the whole invocation); a refused renewal
     * makes {@link #lost()} true.
     */
    Instant deadline();

    /**
     * Asks for the lease to last until {@code more} from now (plus the skew tolerance), bounded by the
     * invocation's own end. One conditional write when the lease must grow, none when it already covers
     * the request. False when the lease is no longer ours (taken over after it expired): stop at once,
     * the completion will be refused anyway.
     */
    boolean extend(Duration more);

    /** True once an extension or a renewal found the lease taken over (or run out). */
    boolean lost();

    /** A lease that ends at {@code deadline} and cannot be extended (tests, hosts without a ledger). */
    static JobLease until(Instant deadline) {
        return new JobLease() {
            @Override
            public Instant deadline() {
                return deadline;
            }

            @Override
            public boolean extend(Duration more) {
                return false;
            }

            @Override
            public boolean lost() {
                return false;
            }
        };
    }
}
