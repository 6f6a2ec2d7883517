package dev.punctual.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the ledger knows about one occurrence. Fields that do not apply to a status are null
 * (e.g. no owner on a skip, no missed range on a run); the ledger engine builds them
 * ({@code dev.punctual.ledger.spi}); readers take them as they are.
 *
 * @param reason why the run was skipped, fenced or abandoned
 * @param missedUntil for a MISSED range: the last occurrence the range covers (the key is the first)
 * @param expiresAt when DynamoDB TTL may delete the record (cleanup only, never logic)
 * @param earlier the attempts this record replaced, oldest first, at most {@link Attempt#KEPT}
 * @param operatorSkip on a SKIPPED record: the operator's skip set ahead of the occurrence (decision
 *     0033), else null
 * @param approval on a SKIPPED record with no attempt: an operator's approval not yet used by a claim
 *     (decision 0041), else null
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
        Instant expiresAt,
        List<Attempt> earlier,
        OperatorSkip operatorSkip,
        Approval approval) {

    public RunRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(status, "status");
        earlier = List.copyOf(earlier == null ? List.of() : earlier);
    }

    /** A record without an approval (the form before decision 0041). */
    public RunRecord(
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
            Instant expiresAt,
            List<Attempt> earlier,
            OperatorSkip operatorSkip) {
        this(
                key,
                status,
                attempts,
                ownerToken,
                fence,
                trigger,
                schedulerAttempt,
                startedAt,
                finishedAt,
                reason,
                errorSummary,
                resultSummary,
                missedUntil,
                missedCount,
                expiresAt,
                earlier,
                operatorSkip,
                null);
    }

    /** The approval this record carries, not yet used by a claim (decision 0041), if any. */
    public Optional<Approval> plannedApproval() {
        return Optional.ofNullable(approval);
    }

    /** The operator's skip this record carries (decision 0033), if any. */
    public Optional<OperatorSkip> skip() {
        return Optional.ofNullable(operatorSkip);
    }

    public Optional<Duration> duration() {
        if (startedAt == null || finishedAt == null) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(startedAt, finishedAt));
    }
}
