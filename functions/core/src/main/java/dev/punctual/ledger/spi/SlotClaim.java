package dev.punctual.ledger.spi;

import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.Trigger;
import java.time.Instant;

/**
 * A fresh claim written to a job's slot. {@code fence} is the lease's fence for a shared group; on the
 * job's own group the store computes it in the same write that takes the lease.
 */
public record SlotClaim(RunKey key, String token, long fence, Trigger trigger, int schedulerAttempt, Instant now) {

    static SlotClaim of(ClaimRequest request, String token, long fence, Instant now) {
        return new SlotClaim(request.key(), token, fence, request.trigger(), request.schedulerAttempt(), now);
    }
}
