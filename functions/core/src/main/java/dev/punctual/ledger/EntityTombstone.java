package dev.punctual.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The mark an entity's delete leaves on its ledger item {@code job:entity} before its schedule is deleted
 * (decision 0029, 8): while it stands, every claim of the entity's occurrences is refused
 * ({@link EntityDeleted}), so a delivery still in flight is recorded as a skip, never run. A put of the
 * same entity clears it.
 *
 * @param deletedAt when the first delete wrote it (a second delete keeps the first mark)
 * @param deletedBy who deleted the entity, as the client names itself
 */
public record EntityTombstone(Instant deletedAt, String deletedBy) {

    public EntityTombstone {
        deletedAt = Objects.requireNonNull(deletedAt, "deletedAt").truncatedTo(ChronoUnit.MILLIS);
        if (deletedBy == null || deletedBy.isBlank()) {
            throw new IllegalArgumentException("deletedBy: who deletes the entity is required, was blank");
        }
    }
}
