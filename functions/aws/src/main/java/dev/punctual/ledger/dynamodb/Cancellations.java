package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.LockState;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.spi.Commit;
import dev.punctual.ledger.spi.CompletionPlan;
import dev.punctual.ledger.spi.OutcomeUnknownException;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** Reads a cancelled transaction's per-action reasons (with the stored items, ALL_OLD). */
final class Cancellations {

    private static final String CONDITION_FAILED = "ConditionalCheckFailed";

    private Cancellations() {}

    /** A failed condition is an answer (false); a conflict or throttle leaves the outcome to read back. */
    static boolean unknownUnlessConditionFailed(TransactionCanceledException e, String what) {
        if (e.cancellationReasons().stream().anyMatch(r -> CONDITION_FAILED.equals(r.code()))) {
            return false;
        }
        throw new OutcomeUnknownException(what + ": transaction cancelled " + codes(e), e);
    }

    static Commit commitOutcome(TransactionCanceledException e, CompletionPlan plan) {
        List<CancellationReason> reasons = e.cancellationReasons();
        unknownUnlessConditionFailed(e, "complete run");
        if (conditionFailed(reasons, CommitItems.GROUP)) {
            LockState group = Codec.lock(
                    plan.lease().group(), reasons.get(CommitItems.GROUP).item());
            boolean leaseOurs = plan.lease().ownerToken().equals(group.leaseOwner()) && group.leaseHeldAt(plan.now());
            boolean slotOk = !plan.ownGroup() || !plan.onSlot() || slotOurs(group, plan);
            return leaseOurs && slotOk ? Commit.CURSOR_AHEAD : Commit.LEASE_LOST;
        }
        LockState job = Codec.lock(plan.jobId(), reasons.get(CommitItems.JOB).item());
        return !plan.onSlot() || slotOurs(job, plan) ? Commit.CURSOR_AHEAD : Commit.LEASE_LOST;
    }

    /** Whether the transaction's item at {@code index} was refused by its own condition. */
    static boolean conditionFailed(List<CancellationReason> reasons, int index) {
        return reasons.size() > index
                && CONDITION_FAILED.equals(reasons.get(index).code());
    }

    private static boolean slotOurs(LockState state, CompletionPlan plan) {
        Slot slot = state.slot();
        return slot != null
                && slot.occurrence().equals(plan.record().key().scheduledTime())
                && plan.lease().ownerToken().equals(slot.ownerToken());
    }

    private static String codes(TransactionCanceledException e) {
        return e.cancellationReasons().stream()
                .map(CancellationReason::code)
                .toList()
                .toString();
    }
}
