package dev.punctual.ledger.spi;

import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.LeaseKind;
import dev.punctual.ledger.MaintenanceHold;
import java.time.Instant;

/**
 * What a lease acquisition writes; {@code hold} is set only for maintenance. A maintenance grant may
 * replace a hold in force that the same operator set ({@code hold.setBy()}), or with {@code force} a
 * hold anyone set; no grant replaces a job's live lease.
 */
public record LeaseGrant(
        String group,
        String token,
        String holder,
        LeaseKind kind,
        MaintenanceHold hold,
        boolean force,
        Instant until,
        Instant now) {

    static LeaseGrant forJob(ClaimRequest request, String token, Instant now) {
        return new LeaseGrant(
                request.lockGroup(),
                token,
                request.key().jobId(),
                LeaseKind.JOB,
                null,
                false,
                request.leaseUntil(),
                now);
    }

    static LeaseGrant forMaintenance(String group, String token, MaintenanceHold hold, boolean force, Instant now) {
        return new LeaseGrant(group, token, hold.setBy(), LeaseKind.MAINTENANCE, hold, force, hold.until(), now);
    }
}
