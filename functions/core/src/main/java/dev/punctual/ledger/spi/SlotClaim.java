package dev.punctual.ledger.spi;

import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.Trigger;
import java.time.Instant;

/**
 * A fresh claim written to a job's slot. {@code fence} is the lease's fence for a shared group; on the
 * job's own group the store computes it in the same write that takes the lease. {@code approvalRequired}:
 * the write also requires the occurrence's approval mark (APPROVED) and removes it (APPROVAL_USED), decision
 * 0041; false, the write is the one sent before.
 */
public record SlotClaim(
        RunKey key,
        String token,
        long fence,
        Trigger trigger,
        int schedulerAttempt,
        Instant now,
        boolean approvalRequired) {

    public SlotClaim(RunKey key, String token, long fence, Trigger trigger, int schedulerAttempt, Instant now) {
        this(key, token, fence, trigger, schedulerAttempt, now, false);
    }

    static SlotClaim of(ClaimRequest request, String token, long fence, Instant now) {
        return new SlotClaim(
                request.key(),
                token,
                fence,
                request.trigger(),
                request.schedulerAttempt(),
                now,
                request.approvalRequired());
    }
}
