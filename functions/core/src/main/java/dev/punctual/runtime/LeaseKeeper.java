package dev.punctual.runtime;

import dev.punctual.PunctualException;
import dev.punctual.job.JobLease;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.RunLedger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The job's view of its claim's lease: the deadline it must stop by, and fenced extensions through the
 * ledger (only the current owner token, which names one fence, can push the lease out). Lives for one
 * occurrence on the invocation's thread.
 *
 * <p>The runtime's heartbeat rides on the job's polls: reading {@link #deadline()} (which
 * {@code JobContext.shouldStop()} and {@code remaining()} do) renews the lease once less than half of
 * its term's working part (the term less the skew tolerance and the completion's safety) is left
 * before the job's deadline, and the invocation's own bound allows more. A job that shows it is alive keeps its
 * group; a stuck job, which never polls, loses it after one term; no thread races the completion, and
 * a lease that already lasts the whole invocation (the default) is never written to.
 */
final class LeaseKeeper implements JobLease {

    private final RunLedger ledger;
    private final Clock clock;
    private final Deadline invocation;
    private Lease lease;
    private boolean lost;

    LeaseKeeper(RunLedger ledger, Clock clock, Deadline invocation, Lease lease) {
        this.ledger = ledger;
        this.clock = clock;
        this.invocation = invocation;
        this.lease = lease;
    }

    @Override
    public Instant deadline() {
        renewIfDue();
        return jobDeadline();
    }

    /**
     * Whether the lease has no working time left now (read without renewing): a job must not start on
     * it. A claim computes its lease's end before its write is sent; a write that lands after that end
     * (the SDK resends the same request on its retries) is granted a lease that is already over, while
     * another runner may take the group.
     */
    boolean over() {
        return lost || !clock.instant().isBefore(jobDeadline());
    }

    /**
     * Before the job starts: a claim that came back late (a resent write, a long wait for the group)
     * may leave its lease only seconds of working time while the invocation allows more, and a job that
     * never polls would then work past it and be fenced. The lease is renewed now if a renewal is due (the
     * same rule and the same one fenced write as a poll's), and the job may start only if at least
     * {@code minimum} of working time is left after that.
     */
    boolean readyToStart(Duration minimum) {
        renewIfDue();
        return !lost && !clock.instant().plus(minimum).isAfter(jobDeadline());
    }

    // Stop a tolerance before the lease ends, so a successor whose clock runs ahead by less than that
    // never starts while this job still works, and leave the completion its safety time.
    private Instant jobDeadline() {
        Instant byLease = lease.expiresAt().minus(invocation.skewTolerance()).minus(Deadline.SAFETY);
        return byLease.isBefore(invocation.workUntil()) ? byLease : invocation.workUntil();
    }

    @Override
    public boolean extend(Duration more) {
        if (lost) {
            return false;
        }
        Instant wanted = clock.instant().plus(more).plus(invocation.skewTolerance());
        Instant until = wanted.isBefore(invocation.leaseUntil()) ? wanted : invocation.leaseUntil();
        if (!until.isAfter(lease.expiresAt())) {
            return true; // already long enough (or the invocation ends first): no write
        }
        Optional<Lease> extended = ledger.extend(lease, until);
        extended.ifPresentOrElse(l -> lease = l, () -> lost = true);
        return !lost;
    }

    @Override
    public boolean lost() {
        return lost;
    }

    /**
     * The automatic heartbeat: one fenced conditional write, only when less than half of the term's
     * working part is left before the deadline and a fresh term would end later than the lease does now. A refusal (the lease ran out or
     * was taken over) marks the lease lost, so the job's next {@code shouldStop()} is true.
     */
    private void renewIfDue() {
        if (lost) {
            return;
        }
        Instant now = clock.instant();
        // Half of the term's working part, counted back from the job's deadline, not from the lease's
        // end: the deadline comes a tolerance and the completion's safety earlier, so a short term next
        // to a large tolerance would otherwise reach its deadline before its renewal.
        Duration margin = invocation.skewTolerance().plus(Deadline.SAFETY);
        Duration working = invocation.leaseTerm().minus(margin);
        if (!now.isAfter(lease.expiresAt().minus(margin).minus(working.dividedBy(2)))) {
            return; // more than half of the working part left
        }
        // The stores keep milliseconds: a bound that differs by less is no more time.
        Instant until = invocation.leaseFor(now).truncatedTo(ChronoUnit.MILLIS);
        if (!until.isAfter(lease.expiresAt())) {
            return; // the invocation's own bound allows no more (always so for a whole-invocation lease)
        }
        try {
            ledger.extend(lease, until).ifPresentOrElse(l -> lease = l, () -> lost = true);
        } catch (PunctualException unavailable) {
            // The ledger did not answer (the write may or may not have applied): keep the lease we know.
            // Its deadline still holds, so the job stops in time if the store stays away; the next poll
            // tries again.
        }
    }
}
