package dev.punctual.ledger.spi;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Approval;
import dev.punctual.ledger.ApprovalPlan;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Slot;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Operators' approvals of single occurrences (decision 0041), the mirror image of a skip (decision 0033). An
 * approval is two writes in one transaction: a mark on the job's lock item, which a fresh claim's own
 * write requires and removes (APPROVED, APPROVAL_USED), and the planned run item, which a claim that reads
 * the run item requires and replaces with its own record. Either a claim comes first (in flight on the
 * slot, or a run recorded) and the approval is refused, or the approval comes first and the next claim
 * uses it, once: both in the store's own conditions.
 */
final class Approving {

    /** As for skips: each mark rides on every write of the lock item, about 14 bytes each. */
    static final int MAX_APPROVALS_AHEAD = 50;

    private static final int PASSES = 3;

    private final LedgerStore store;
    private final Retention retention;

    Approving(LedgerStore store, Retention retention) {
        this.store = store;
        this.retention = retention;
    }

    ApprovalPlan approve(RunKey key, Approval approval) {
        Instant t = key.scheduledTime();
        for (int pass = 0; pass < PASSES; pass++) {
            LockState lock = store.readLock(key.jobId());
            pruneMarksPassed(lock);
            Optional<RunRecord> seen = store.readRun(key);
            Optional<ApprovalPlan> refused = refusedFrom(lock, seen, t);
            if (refused.isPresent()) {
                return refused.get();
            }
            // Kept until the occurrence's own skip retention has passed, however far ahead it was set (as a
            // planned skip is): a TTL deletion before the occurrence would leave the mark alone.
            Instant from = t.isAfter(approval.at()) ? t : approval.at();
            RunRecord planned = Records.approved(key, approval, retention.expiryOf(RunStatus.SKIPPED, from));
            boolean stored = ReadBack.write(
                    "plan approval of " + key,
                    () -> store.planApproval(planned, seen, MAX_APPROVALS_AHEAD),
                    () -> store.readRun(key).filter(planned::equals).map(r -> true));
            if (stored) {
                return seen.isPresent()
                        ? new ApprovalPlan.PlannedAfterSkip(planned, seen.get())
                        : new ApprovalPlan.Planned(planned);
            }
            // Refused: the state moved between the read and the write (a claim, another approval); read again.
        }
        throw new PunctualException(
                "approval of " + key + " did not settle in " + PASSES + " passes: the occurrence keeps changing");
    }

    /** Why the state read refuses an approval; empty when the write may be tried. */
    private static Optional<ApprovalPlan> refusedFrom(LockState lock, Optional<RunRecord> seen, Instant t) {
        // First: a fresh claim in flight used the mark and has not yet written the run item, which still
        // shows the approval it used.
        Slot slot = lock.slot();
        if (slot != null && slot.running() && slot.occurrence().equals(t)) {
            return Optional.of(new ApprovalPlan.AlreadyStarted(Optional.of(Records.asRunning(slot, lock.id(), null))));
        }
        if (seen.flatMap(RunRecord::plannedApproval).isPresent()) {
            return Optional.of(new ApprovalPlan.AlreadyApproved(seen.get()));
        }
        if (seen.flatMap(RunRecord::skip).isPresent()) {
            return Optional.of(new ApprovalPlan.OperatorSkipped(seen.get()));
        }
        if (seen.filter(r -> r.status() != RunStatus.SKIPPED).isPresent()) {
            return Optional.of(new ApprovalPlan.AlreadyStarted(seen));
        }
        if (seen.isEmpty() && lock.cursor() != null && !lock.cursor().isBefore(t)) {
            // Nothing recorded and the cursor past it: no delivery nor catch-up will claim it afresh. A
            // recorded refusal behind the cursor may still be approved: a manual run of it reads the run item.
            return Optional.of(new ApprovalPlan.BehindCursor(lock.cursor()));
        }
        long ahead = lock.approvals().stream()
                .filter(mark -> lock.cursor() == null || mark.isAfter(lock.cursor()))
                .count();
        if (ahead >= MAX_APPROVALS_AHEAD && !lock.approvalMarked(t)) {
            return Optional.of(new ApprovalPlan.TooMany(MAX_APPROVALS_AHEAD));
        }
        return Optional.empty();
    }

    /** Marks at or behind the cursor are used or refuse nothing; dropped first so the limit counts those ahead. */
    private void pruneMarksPassed(LockState lock) {
        if (lock.cursor() == null) {
            return;
        }
        List<Instant> passed = lock.approvals().stream()
                .filter(mark -> !mark.isAfter(lock.cursor()))
                .toList();
        if (passed.isEmpty()) {
            return;
        }
        try {
            store.pruneApprovals(lock.id(), passed);
        } catch (OutcomeUnknownException unknown) {
            // Harmless either way: the next approval prunes them again.
        }
    }

    /** The job's (or entity's) approvals not yet used, oldest first: marks ahead with their run items. */
    List<RunRecord> ahead(String lockId) {
        LockState lock = store.readLock(lockId);
        return lock.approvals().stream()
                .map(mark -> store.readRun(new RunKey(lockId, mark)))
                .flatMap(Optional::stream)
                .filter(r -> r.plannedApproval().isPresent())
                .toList();
    }
}
