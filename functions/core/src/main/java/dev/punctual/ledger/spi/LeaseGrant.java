package dev.punctual.ledger.spi;

import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.LeaseKind;
import dev.punctual.ledger.MaintenanceHold;
import java.time.Instant;

/**
 * What a lease acquisition writes; {@code hold} is set only for maintenance. A maintenance grant may
 * replace a hold in force that the same operator set ({@code hold.setBy()}), or with {@code force} a
 * hold anyone set; no grant replaces a job's live lease. {@code occurrence} is the occurrence a job's grant
 * is taken for (a pause mark on the item refuses it, NOT_PAUSED, decision 0040); null for maintenance.
 */
public record LeaseGrant(
        String group,
        String token,
        String holder,
        LeaseKind kind,
        MaintenanceHold hold,
        boolean force,
        Instant until,
        Instant now,
        Instant occurrence) {

    static LeaseGrant forJob(ClaimRequest request, String token, Instant now) {
        return new LeaseGrant(
                request.lockGroup(),
                token,
                request.key().jobId(),
                LeaseKind.JOB,
                null,
                false,
                request.leaseUntil(),
                now,
                request.key().scheduledTime());
    }

    /** The same grant on another lease item: one slot of a group of capacity N (decision 0051). */
    LeaseGrant onItem(String item) {
        return new LeaseGrant(item, token, holder, kind, hold, force, until, now, occurrence);
    }

    static LeaseGrant forMaintenance(String group, String token, MaintenanceHold hold, boolean force, Instant now) {
        return new LeaseGrant(group, token, hold.setBy(), LeaseKind.MAINTENANCE, hold, force, hold.until(), now, null);
    }
}
