package dev.punctual.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * The execution that runs a long occurrence (decision 0039), kept beside its run item.
 *
 * @param key the occurrence (an entity's ledger id for a per-entity job)
 * @param name the execution's name, derived from the occurrence and the claim's fence
 * @param arn the execution's ARN
 * @param fence the fence of the claim that started it
 * @param startedAt when the claim started it, on the runtime's clock
 * @param planned the chunks its plan listed; {@link #NOT_PLANNED} until the plan step ran
 * @param expiresAt when DynamoDB TTL may delete it (the run item's retention)
 */
public record ExecutionRecord(
        RunKey key, String name, String arn, long fence, Instant startedAt, int planned, Instant expiresAt) {

    public static final int NOT_PLANNED = -1;

    public ExecutionRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arn, "arn");
        Objects.requireNonNull(startedAt, "startedAt");
    }

    public boolean isPlanned() {
        return planned != NOT_PLANNED;
    }

    public ExecutionRecord withPlanned(int count) {
        return new ExecutionRecord(key, name, arn, fence, startedAt, count, expiresAt);
    }
}
