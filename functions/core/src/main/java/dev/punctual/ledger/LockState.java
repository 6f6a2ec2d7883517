package dev.punctual.ledger;

import java.time.Instant;

/**
 * The lock item of one id: the lease of the lock group with that id, and (because a job's own group
 * carries its name) the cursor and fast-path slot of the job with that id. Absent parts are null; an
 * item that does not exist is {@link #absent(String)}.
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
        Slot slot) {

    public static LockState absent(String id) {
        return new LockState(id, 0, null, null, null, null, null, null, null, null);
    }

    /** Mirrors the lease-free clause: the lease ends at leaseUntil, whatever TTL does. */
    public boolean leaseHeldAt(Instant now) {
        return leaseOwner != null && leaseUntil != null && leaseUntil.isAfter(now);
    }

    public boolean underMaintenanceAt(Instant now) {
        return leaseHeldAt(now) && leaseKind == LeaseKind.MAINTENANCE;
    }

    /** Mirrors the fresh-occurrence clauses: after the cursor, after the slot, nothing left running. */
    public boolean freshFor(Instant occurrence) {
        boolean afterCursor = cursor == null || cursor.isBefore(occurrence);
        boolean afterSlot = slot == null || slot.occurrence().isBefore(occurrence);
        boolean nothingRunning = slot == null || !slot.running();
        return afterCursor && afterSlot && nothingRunning;
    }
}
