package dev.punctual.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A one-time entity's completion as its completion noted it (decision 0047): the occurrence that left the
 * entity with no next one (an {@code at()} delivered), its final status, when the ledger recorded it, and
 * until when the note is kept (the run item's own expiry, so the note lives as long as the run it names).
 *
 * @param job the per-entity job's id
 * @param entity the entity's id
 * @param occurrence the delivered occurrence
 * @param status the completion's status: SUCCEEDED, FAILED, SKIPPED (the job's own skip) or ABANDONED
 * @param finishedAt when the completion was committed, on the ledger's clock
 * @param expiresAt when the note may be deleted (DynamoDB TTL, whole seconds; cleanup, never logic)
 */
public record CompletedEntity(
        String job, String entity, Instant occurrence, RunStatus status, Instant finishedAt, Instant expiresAt) {

    public CompletedEntity {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(occurrence, "occurrence");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(finishedAt, "finishedAt");
        // In whole seconds, DynamoDB TTL's unit, so both stores hand back the same note.
        expiresAt = Objects.requireNonNull(expiresAt, "expiresAt").truncatedTo(ChronoUnit.SECONDS);
    }

    /** The entity's ledger id, {@code job:entity}. */
    public String ledgerId() {
        return job + ":" + entity;
    }

    /** The note's shard ({@link CompletedShards}): where a completion writes it and a page reads it. */
    public int shard() {
        return CompletedShards.of(ledgerId());
    }
}
