package dev.punctual.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * One chunk of a long occurrence, as recorded (decision 0039).
 *
 * @param status SUCCEEDED (final) or FAILED (its last attempt failed; it may be tried again)
 * @param attempts the attempts recorded, succeeded or failed
 * @param fence the fence of the claim under which the last attempt was recorded
 * @param at when the last attempt was recorded
 * @param error the last failure's summary (sanitised), null on a success
 * @param summary the success's result summary (sanitised), null on a failure
 * @param expiresAt when DynamoDB TTL may delete it
 * @param writer a token of the one call that wrote this attempt (never reused): after a lost answer, a
 *     record carrying it is the caller's own write, never a twin's identical one
 */
public record ChunkRecord(
        RunKey key,
        String chunk,
        Status status,
        int attempts,
        long fence,
        Instant at,
        String error,
        String summary,
        Instant expiresAt,
        String writer) {

    public ChunkRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(chunk, "chunk");
        Objects.requireNonNull(status, "status");
    }

    public boolean succeeded() {
        return status == Status.SUCCEEDED;
    }

    public enum Status {
        SUCCEEDED,
        FAILED
    }
}
