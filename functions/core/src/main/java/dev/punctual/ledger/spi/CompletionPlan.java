package dev.punctual.ledger.spi;

import dev.punctual.ledger.CompletedEntity;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.RunRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Everything one fenced completion commits together: the final run record, the lease release, the
 * slot's final status (when the claim lived on the slot) and, for a success past the cursor, the
 * cursor advance; for an entity's occurrence past the cursor, the due watch's note on the entity's item
 * ({@code due}: empty for a job, and for an entity's replay of an older occurrence).
 */
public record CompletionPlan(
        RunRecord record, Lease lease, boolean onSlot, boolean advanceCursor, Instant now, Optional<NextDue> due) {

    public CompletionPlan {
        Objects.requireNonNull(due, "due");
    }

    public CompletionPlan(RunRecord record, Lease lease, boolean onSlot, boolean advanceCursor, Instant now) {
        this(record, lease, onSlot, advanceCursor, now, Optional.empty());
    }

    public String jobId() {
        return record.key().jobId();
    }

    public boolean ownGroup() {
        return lease.group().equals(jobId());
    }

    /**
     * The transaction's idempotency token: the same claim retrying the same commit within DynamoDB's
     * ten minutes gets the first answer instead of a second application. It is derived from the owner
     * token and the occurrence (plus the plan's shape, because a retry without the cursor advance is a
     * different request and DynamoDB rejects a reused token with different parameters).
     */
    public String requestToken() {
        String seed = lease.ownerToken() + "|" + jobId() + "|"
                + record.key().scheduledTime().toEpochMilli() + "|" + record.status() + "|" + advanceCursor
                + due.map(d -> "|due " + d.at().map(Instant::toEpochMilli).orElse(-1L))
                        .orElse("");
        return UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * The completed one-time entity's note (decision 0047), written in this same transaction: present when
     * the completion clears the entity's due note (its schedule has no next occurrence, DUE_CLEARED), so
     * exactly the completions that take an entity out of the due index put it in its job's completed list.
     * Expires with the run item it names.
     */
    public Optional<CompletedEntity> completedNote() {
        int colon = jobId().indexOf(':');
        boolean cleared = due.filter(d -> d.at().isEmpty()).isPresent();
        if (!cleared || colon <= 0 || record.expiresAt() == null) {
            return Optional.empty();
        }
        return Optional.of(new CompletedEntity(
                jobId().substring(0, colon),
                jobId().substring(colon + 1),
                record.key().scheduledTime(),
                record.status(),
                now,
                record.expiresAt()));
    }

    /** The cursor passed the occurrence meanwhile: its completion is not the newest, so it notes nothing. */
    CompletionPlan withoutCursorAdvance() {
        return new CompletionPlan(record, lease, onSlot, false, now, Optional.empty());
    }
}
