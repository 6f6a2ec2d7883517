package dev.punctual.runtime;

import dev.punctual.job.JobLease;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.RunLedger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The job's view of its claim's lease: the deadline it must stop by, and fenced extensions through the
 * ledger (only the current owner token, which names one fence, can push the lease out). Lives for one
 * occurrence on the invocation's thread.
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
        // Stop a tolerance before the lease ends, so a successor whose clock runs ahead by less than
        // that never starts while this job still works, and leave the completion its safety time.
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
}
