package dev.punctual.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the ledger knows about one occurrence. Fields that do not apply to a status are null
 * (e.g. no owner on a skip, no missed range on a run).
 *
 * @param reason why the run was skipped, fenced or abandoned
 * @param missedUntil for a MISSED range: the last occurrence the range covers (the key is the first)
 * @param expiresAt when DynamoDB TTL may delete the record (cleanup only, never logic)
 */
public record RunRecord(
        RunKey key,
        RunStatus status,
        int attempts,
        String ownerToken,
        long fence,
        Trigger trigger,
        int schedulerAttempt,
        Instant startedAt,
        Instant finishedAt,
        String reason,
        String errorSummary,
        String resultSummary,
        Instant missedUntil,
        int missedCount,
        Instant expiresAt) {

    public Optional<Duration> duration() {
        if (startedAt == null || finishedAt == null) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(startedAt, finishedAt));
    }

    /** The in-flight record of a claimed occurrence. */
    static RunRecord running(Claim claim, Instant expiresAt) {
        return new RunRecord(
                claim.key(),
                RunStatus.RUNNING,
                claim.attempt(),
                claim.lease().ownerToken(),
                claim.fence(),
                claim.trigger(),
                claim.schedulerAttempt(),
                claim.startedAt(),
                null,
                null,
                null,
                null,
                null,
                0,
                expiresAt);
    }

    RunRecord finished(RunStatus newStatus, Instant at, String why, String error, String result, Instant expiry) {
        return new RunRecord(
                key,
                newStatus,
                attempts,
                ownerToken,
                fence,
                trigger,
                schedulerAttempt,
                startedAt,
                at,
                why,
                error,
                result,
                missedUntil,
                missedCount,
                expiry);
    }
}
