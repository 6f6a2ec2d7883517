package dev.punctual.ledger;

import java.time.Instant;
import java.util.List;

/**
 * The lock item of one id: the lease of the lock group with that id, and (because a job's own group
 * carries its name) the cursor and fast-path slot of the job with that id; on an entity's item
 * ({@code job:entity}) also the tombstone its delete wrote. Absent parts are null; an item that does not
 * exist is {@link #absent(String)}.
 *
 * @param pause an operator's pause of what this item locks (decision 0040), or null
 * @param entityLeasedAt on a per-entity job's group item: when the last entity lease under it was taken,
 *     on its claimant's clock (written by the claim's own transaction, decision 0036's addendum); null
 *     when no entity of the group ever took its own lease. A maintenance hold on the group waits for the
 *     entity runs only while one taken at that time can still hold its lease
 * @param lastSuccessAt on a job's own item (and an entity's): when its last success was recorded, on the
 *     completing invocation's clock (written by the success's completion transaction, decision 0042);
 *     null before its first success, or when it last succeeded before decision 0042
 */
public record LockState(
        String id,
        long fence,
        String leaseOwner,
        Instant leaseUntil,
        Instant leaseAcquiredAt,
        String leaseHolder,
        LeaseKind leaseKind,
        MaintenanceHold maintenance,
        Instant cursor,
        Slot slot,
        EntityTombstone tombstone,
        List<Instant> skips,
        Instant entityLeasedAt,
        Instant lastSuccessAt,
        PauseMark pause,
        List<Instant> approvals) {

    public LockState {
        skips = skips == null ? List.of() : List.copyOf(skips);
        approvals = approvals == null ? List.of() : List.copyOf(approvals);
    }

    /** The same item with other approval marks (decision 0041). */
    public LockState withApprovals(List<Instant> marks) {
        return new LockState(
                id,
                fence,
                leaseOwner,
                leaseUntil,
                leaseAcquiredAt,
                leaseHolder,
                leaseKind,
                maintenance,
                cursor,
                slot,
                tombstone,
                skips,
                entityLeasedAt,
                lastSuccessAt,
                pause,
                marks);
    }

    /** Mirrors APPROVED: the occurrence carries an operator's approval mark a fresh claim may use. */
    public boolean approvalMarked(Instant occurrence) {
        return approvals.contains(occurrence);
    }

    /** Without a last success, a pause or approvals (the form before decisions 0040 to 0042). */
    public LockState(
            String id,
            long fence,
            String leaseOwner,
            Instant leaseUntil,
            Instant leaseAcquiredAt,
            String leaseHolder,
            LeaseKind leaseKind,
            MaintenanceHold maintenance,
            Instant cursor,
            Slot slot,
            EntityTombstone tombstone,
            List<Instant> skips,
            Instant entityLeasedAt) {
        this(
                id,
                fence,
                leaseOwner,
                leaseUntil,
                leaseAcquiredAt,
                leaseHolder,
                leaseKind,
                maintenance,
                cursor,
                slot,
                tombstone,
                skips,
                entityLeasedAt,
                null,
                null,
                List.of());
    }

    public static LockState absent(String id) {
        return new LockState(
                id, 0, null, null, null, null, null, null, null, null, null, List.of(), null, null, null, List.of());
    }

    /** The last success's time, if one was recorded here (decision 0042). */
    public java.util.Optional<Instant> lastSuccess() {
        return java.util.Optional.ofNullable(lastSuccessAt);
    }

    /** The same item noting a success recorded at {@code at} (LAST_SUCCESS, in the completion's write). */
    public LockState withLastSuccessAt(Instant at) {
        return new LockState(
                id,
                fence,
                leaseOwner,
                leaseUntil,
                leaseAcquiredAt,
                leaseHolder,
                leaseKind,
                maintenance,
                cursor,
                slot,
                tombstone,
                skips,
                entityLeasedAt,
                at,
                pause,
                approvals);
    }

    /** The same item with other skip marks (decision 0033). */
    public LockState withSkips(List<Instant> marks) {
        return new LockState(
                id,
                fence,
                leaseOwner,
                leaseUntil,
                leaseAcquiredAt,
                leaseHolder,
                leaseKind,
                maintenance,
                cursor,
                slot,
                tombstone,
                marks,
                entityLeasedAt,
                lastSuccessAt,
                pause,
                approvals);
    }

    /** Mirrors NOT_SKIPPED: an operator's skip mark refuses every fresh claim of the occurrence. */
    public boolean skipMarked(Instant occurrence) {
        return skips.contains(occurrence);
    }

    /** The same item with its tombstone (an entity's delete, decision 0029, 8), or without one (null). */
    public LockState withTombstone(EntityTombstone stone) {
        return new LockState(
                id,
                fence,
                leaseOwner,
                leaseUntil,
                leaseAcquiredAt,
                leaseHolder,
                leaseKind,
                maintenance,
                cursor,
                slot,
                stone,
                skips,
                entityLeasedAt,
                lastSuccessAt,
                pause,
                approvals);
    }

    /** The same item noting an entity lease taken under it at {@code at} (NOTE_ENTITY_LEASE). */
    public LockState withEntityLeasedAt(Instant at) {
        return new LockState(
                id,
                fence,
                leaseOwner,
                leaseUntil,
                leaseAcquiredAt,
                leaseHolder,
                leaseKind,
                maintenance,
                cursor,
                slot,
                tombstone,
                skips,
                at,
                lastSuccessAt,
                pause,
                approvals);
    }

    /** The same item with an operator's pause (decision 0040), or without one (null). */
    public LockState withPause(PauseMark mark) {
        return new LockState(
                id,
                fence,
                leaseOwner,
                leaseUntil,
                leaseAcquiredAt,
                leaseHolder,
                leaseKind,
                maintenance,
                cursor,
                slot,
                tombstone,
                skips,
                entityLeasedAt,
                lastSuccessAt,
                mark,
                approvals);
    }

    /** Mirrors NOT_PAUSED: whether this item's pause refuses a claim of {@code occurrence} at {@code now}. */
    public boolean pausedFor(Instant occurrence, Instant now) {
        return pause != null && pause.refuses(occurrence, now);
    }

    /** Mirrors NOT_DELETED: the entity's delete refuses every claim until a put clears the tombstone. */
    public boolean deleted() {
        return tombstone != null;
    }

    /** Mirrors the lease-free clause: the lease ends at leaseUntil, whatever TTL does. */
    public boolean leaseHeldAt(Instant now) {
        return leaseOwner != null && leaseUntil != null && leaseUntil.isAfter(now);
    }

    public boolean underMaintenanceAt(Instant now) {
        return leaseHeldAt(now) && leaseKind == LeaseKind.MAINTENANCE;
    }

    /**
     * Mirrors the fresh-occurrence clauses: after the cursor, after the slot, nothing left running, and no
     * operator's skip mark on it.
     */
    public boolean freshFor(Instant occurrence) {
        boolean afterCursor = cursor == null || cursor.isBefore(occurrence);
        boolean afterSlot = slot == null || slot.occurrence().isBefore(occurrence);
        boolean nothingRunning = slot == null || !slot.running();
        return afterCursor && afterSlot && nothingRunning && !skipMarked(occurrence);
    }
}
