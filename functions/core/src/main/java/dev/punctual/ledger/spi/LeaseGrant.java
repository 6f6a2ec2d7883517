package dev.punctual.ledger.spi;

import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.LeaseKind;
import dev.punctual.ledger.MaintenanceHold;
import java.time.Instant;

/** What a lease acquisition writes; {@code hold} is set only for maintenance. */
public record LeaseGrant(
        String group, String token, String holder, LeaseKind kind, MaintenanceHold hold, Instant until, Instant now) {

    static LeaseGrant forJob(ClaimRequest request, String token, Instant now) {
        return new LeaseGrant(
                request.lockGroup(), token, request.key().jobId(), LeaseKind.JOB, null, request.leaseUntil(), now);
    }

    static LeaseGrant forMaintenance(String group, String token, MaintenanceHold hold, Instant now) {
        return new LeaseGrant(group, token, hold.setBy(), LeaseKind.MAINTENANCE, hold, hold.until(), now);
    }
}
