package dev.punctual.ledger;

import java.time.Instant;
import java.util.Optional;

/**
 * A claimed occurrence, handed to the job: {@link #fence()} guards the job's own downstream writes.
 *
 * @param onSlot the in-flight state lives on the job item (a fresh occurrence) rather than the run item
 * @param cursorBefore the job's cursor when the claim was made, so completion knows whether to advance it
 * @param previous the occurrence's run item before this claim (a failure being retried, a skip), which a
 *     claim given back without running ({@link Outcome.Skipped}) restores, so giving back loses no history
 * @param approvalUsed a fresh claim that used the occurrence's approval mark (decision 0041): given back, it
 *     restores the planned approval its run item still holds, so a claim given back (DEFERRED) loses no
 *     approval
 */
public record Claim(
        RunKey key,
        Lease lease,
        int attempt,
        Trigger trigger,
        int schedulerAttempt,
        Instant startedAt,
        boolean onSlot,
        Optional<Instant> cursorBefore,
        Optional<RunRecord> previous,
        boolean approvalUsed) {

    /** A claim that used no approval mark (the form before decision 0041). */
    public Claim(
            RunKey key,
            Lease lease,
            int attempt,
            Trigger trigger,
            int schedulerAttempt,
            Instant startedAt,
            boolean onSlot,
            Optional<Instant> cursorBefore,
            Optional<RunRecord> previous) {
        this(key, lease, attempt, trigger, schedulerAttempt, startedAt, onSlot, cursorBefore, previous, false);
    }

    public long fence() {
        return lease.fence();
    }
}
