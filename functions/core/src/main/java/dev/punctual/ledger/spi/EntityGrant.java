package dev.punctual.ledger.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An entity's own lease (decision 0029, 5): {@code lease.group()} is the entity's ledger id
 * {@code job:entity}; {@code holdGroup} is the job's group, whose maintenance hold refuses the grant in the
 * same request. The fence is chosen by the claimant and must be above the stored one (the request is a
 * transaction, which returns no item). With {@code claim}, the grant also claims a fresh occurrence on
 * the entity's slot, only where the cursor is {@code expectedCursor} (the occurrence before it).
 */
public record EntityGrant(
        LeaseGrant lease, String holdGroup, long fence, Optional<SlotClaim> claim, Optional<Instant> expectedCursor) {

    public EntityGrant {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(holdGroup, "holdGroup");
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(expectedCursor, "expectedCursor");
        if (claim.isPresent() != expectedCursor.isPresent()) {
            throw new IllegalArgumentException("an entity's one-request claim needs its expected cursor");
        }
        if (fence < 1) {
            throw new IllegalArgumentException("fence must be positive, was " + fence);
        }
    }
}
