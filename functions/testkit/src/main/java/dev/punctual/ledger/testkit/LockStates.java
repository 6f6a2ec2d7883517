package dev.punctual.ledger.testkit;

import dev.punctual.ledger.LockState;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.spi.CompletionPlan;
import dev.punctual.ledger.spi.LeaseGrant;
import dev.punctual.ledger.spi.SlotClaim;
import java.time.Instant;

/** The state changes the update expressions make, written once for the in-memory store. */
final class LockStates {

    private LockStates() {}

    static LockState withLease(LockState s, LeaseGrant g) {
        return new LockState(
                s.id(),
                s.fence() + 1,
                g.token(),
                g.until(),
                g.now(),
                g.holder(),
                g.kind(),
                g.hold(),
                s.cursor(),
                s.slot(),
                s.tombstone(),
                s.skips(),
                s.entityLeasedAt(),
                s.lastSuccessAt(),
                s.pause(),
                s.approvals());
    }

    /** A maintenance hold (HOLD_LEASE_SET, decision 0037): the lease as a job's, the fence as it was. */
    static LockState withHold(LockState s, LeaseGrant g) {
        LockState leased = withLease(s, g);
        return new LockState(
                s.id(),
                s.fence(),
                leased.leaseOwner(),
                leased.leaseUntil(),
                leased.leaseAcquiredAt(),
                leased.leaseHolder(),
                leased.leaseKind(),
                leased.maintenance(),
                s.cursor(),
                s.slot(),
                s.tombstone(),
                s.skips(),
                s.entityLeasedAt(),
                s.lastSuccessAt(),
                s.pause(),
                s.approvals());
    }

    /** An entity's lease (TAKE_ENTITY_LEASE): the claimant's fence instead of one more. */
    static LockState withEntityLease(LockState s, LeaseGrant g, long fence) {
        LockState leased = withLease(s, g);
        return new LockState(
                s.id(),
                fence,
                leased.leaseOwner(),
                leased.leaseUntil(),
                leased.leaseAcquiredAt(),
                leased.leaseHolder(),
                leased.leaseKind(),
                null,
                s.cursor(),
                s.slot(),
                s.tombstone(),
                s.skips(),
                s.entityLeasedAt(),
                s.lastSuccessAt(),
                s.pause(),
                s.approvals());
    }

    static LockState withSlot(LockState s, SlotClaim c, long fence) {
        Slot slot = new Slot(
                c.key().scheduledTime(),
                RunStatus.RUNNING,
                1,
                c.token(),
                fence,
                c.trigger(),
                c.schedulerAttempt(),
                c.now());
        return withJobPart(s, s.cursor(), slot);
    }

    static LockState withSlotStatus(LockState s, RunStatus status) {
        Slot o = s.slot();
        Slot slot = new Slot(
                o.occurrence(),
                status,
                o.attempts(),
                o.ownerToken(),
                o.fence(),
                o.trigger(),
                o.schedulerAttempt(),
                o.startedAt());
        return withJobPart(s, s.cursor(), slot);
    }

    static LockState withCursor(LockState s, Instant cursor) {
        return withJobPart(s, cursor, s.slot());
    }

    static LockState completed(LockState job, CompletionPlan plan) {
        LockState after = plan.onSlot() ? withSlotStatus(job, plan.record().status()) : job;
        after = plan.advanceCursor() ? withCursor(after, plan.record().key().scheduledTime()) : after;
        // As LAST_SUCCESS: every success notes its completion's time on the job's item (decision 0042).
        return plan.record().status() == RunStatus.SUCCEEDED ? after.withLastSuccessAt(plan.now()) : after;
    }

    /** Release keeps the fence and the last holder (history); it clears owner and end. */
    static LockState released(LockState s) {
        return new LockState(
                s.id(),
                s.fence(),
                null,
                null,
                s.leaseAcquiredAt(),
                s.leaseHolder(),
                s.leaseKind(),
                null,
                s.cursor(),
                s.slot(),
                s.tombstone(),
                s.skips(),
                s.entityLeasedAt(),
                s.lastSuccessAt(),
                s.pause(),
                s.approvals());
    }

    static LockState withLeaseUntil(LockState s, Instant until) {
        return new LockState(
                s.id(),
                s.fence(),
                s.leaseOwner(),
                until,
                s.leaseAcquiredAt(),
                s.leaseHolder(),
                s.leaseKind(),
                // As the item does: a hold's end is the lease's end, so a renewal moves both.
                s.maintenance() == null ? null : s.maintenance().until(until),
                s.cursor(),
                s.slot(),
                s.tombstone(),
                s.skips(),
                s.entityLeasedAt(),
                s.lastSuccessAt(),
                s.pause(),
                s.approvals());
    }

    static boolean slotOwnedBy(LockState job, String token, Instant occurrence) {
        Slot slot = job.slot();
        return slot != null
                && slot.running()
                && token.equals(slot.ownerToken())
                && slot.occurrence().equals(occurrence);
    }

    private static LockState withJobPart(LockState s, Instant cursor, Slot slot) {
        return new LockState(
                s.id(),
                s.fence(),
                s.leaseOwner(),
                s.leaseUntil(),
                s.leaseAcquiredAt(),
                s.leaseHolder(),
                s.leaseKind(),
                s.maintenance(),
                cursor,
                slot,
                s.tombstone(),
                s.skips(),
                s.entityLeasedAt(),
                s.lastSuccessAt(),
                s.pause(),
                s.approvals());
    }
}
