package dev.punctual.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the ledger knows about one occurrence. Fields that do not apply to a status are null
 * (e.g. no owner on a skip, no missed range on a run); build one through the factories below.
 *
 * @param reason why the run was skipped, fenced or abandoned
 * @param missedUntil for a MISSED range: the last occurrence the range covers (the key is the first)
 * @param expiresAt when DynamoDB TTL may delete the record (cleanup only, never logic)
 * @param earlier the attempts this record replaced, oldest first, at most {@link Attempt#KEPT}
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
        List<Attempt> earlier) {

    public RunRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(status, "status");
        earlier = List.copyOf(earlier == null ? List.of() : earlier);
    }

    public Optional<Duration> duration() {
        if (startedAt == null || finishedAt == null) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(startedAt, finishedAt));
    }

    /** The in-flight record of a claimed occurrence, carrying the attempts it replaces. */
    static RunRecord running(Claim claim, Instant expiresAt) {
        return inFlight(
                        claim.key(),
                        RunStatus.RUNNING,
                        claim.attempt(),
                        claim.lease().ownerToken(),
                        claim.fence(),
                        claim.trigger(),
                        claim.schedulerAttempt(),
                        claim.startedAt(),
                        expiresAt)
                .withEarlier(Attempt.after(claim.previous()));
    }

    /** A run as the job's slot knows it: who, which attempt, since when; no outcome yet. */
    static RunRecord inFlight(
            RunKey key,
            RunStatus status,
            int attempts,
            String ownerToken,
            long fence,
            Trigger trigger,
            int schedulerAttempt,
            Instant startedAt,
            Instant expiresAt) {
        return new RunRecord(
                key,
                status,
                attempts,
                ownerToken,
                fence,
                trigger,
                schedulerAttempt,
                startedAt,
                null,
                null,
                null,
                null,
                null,
                0,
                expiresAt,
                List.of());
    }

    /** A skip: no attempt, no owner. */
    static RunRecord skipped(
            RunKey key, Trigger trigger, int schedulerAttempt, Instant at, String reason, Instant expiresAt) {
        return inFlight(key, RunStatus.SKIPPED, 0, null, 0, trigger, schedulerAttempt, null, expiresAt)
                .ended(RunStatus.SKIPPED, at, reason, expiresAt);
    }

    /** A range of occurrences catch-up gave up on: the key is the first, {@code last} the last. */
    static RunRecord missed(RunKey first, Instant at, Instant last, int count, Instant expiresAt) {
        return new RunRecord(
                first,
                RunStatus.MISSED,
                0,
                null,
                0,
                null,
                0,
                null,
                at,
                "outside the catch-up bounds",
                null,
                null,
                last,
                count,
                expiresAt,
                List.of());
    }

    /** The job's success, with its result summary. */
    RunRecord succeeded(Instant at, String result, Instant expiry) {
        return finished(RunStatus.SUCCEEDED, at, null, null, result, expiry);
    }

    /** The job's failure, with its error summary. */
    RunRecord failed(Instant at, String error, Instant expiry) {
        return finished(RunStatus.FAILED, at, null, error, null, expiry);
    }

    /** Ended without a result of the job's own (abandoned, skipped), for a stated reason. */
    RunRecord ended(RunStatus newStatus, Instant at, String why, Instant expiry) {
        return finished(newStatus, at, why, null, null, expiry);
    }

    RunRecord finished(RunStatus newStatus, Instant at, String why, String error, String result, Instant expiry) {
        return copy(newStatus, attempts, at, why, error, result, expiry, earlier);
    }

    /** The same record with another attempt count (a claim given back is no attempt). */
    RunRecord withAttempts(int count) {
        return copy(status, count, finishedAt, reason, errorSummary, resultSummary, expiresAt, earlier);
    }

    RunRecord withEarlier(List<Attempt> attempts) {
        return copy(status, this.attempts, finishedAt, reason, errorSummary, resultSummary, expiresAt, attempts);
    }

    /** This record with the parts a run's life changes; who ran it, when it started and any range stay. */
    private RunRecord copy(
            RunStatus newStatus,
            int newAttempts,
            Instant newFinishedAt,
            String newReason,
            String newError,
            String newResult,
            Instant newExpiresAt,
            List<Attempt> newEarlier) {
        return new RunRecord(
                key,
                newStatus,
                newAttempts,
                ownerToken,
                fence,
                trigger,
                schedulerAttempt,
                startedAt,
                newFinishedAt,
                newReason,
                newError,
                newResult,
                missedUntil,
                missedCount,
                newExpiresAt,
                newEarlier);
    }
}
