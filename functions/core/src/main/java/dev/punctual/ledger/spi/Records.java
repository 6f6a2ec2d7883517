package dev.punctual.ledger.spi;

import dev.punctual.ledger.Attempt;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.Trigger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The engine's ways of making and changing the ledger's values: how a claim becomes a run record, how a
 * run ends, what a slot or a lock item says. Here rather than on the values, so the port's readers (the
 * runtime, the CLI) see records as stored and cannot make one.
 */
final class Records {

    /** Reasons kept on an earlier attempt are cut to this many characters (run items are billed per KB). */
    static final int REASON_MAX = 200;

    private Records() {}

    /** The in-flight record of a claimed occurrence, carrying the attempts it replaces. */
    static RunRecord running(Claim claim, Instant expiresAt) {
        return withEarlier(
                inFlight(
                        claim.key(),
                        RunStatus.RUNNING,
                        claim.attempt(),
                        claim.lease().ownerToken(),
                        claim.fence(),
                        claim.trigger(),
                        claim.schedulerAttempt(),
                        claim.startedAt(),
                        expiresAt),
                attemptsAfter(claim.previous()));
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
                List.of(),
                null);
    }

    /** A skip: no attempt, no owner. */
    static RunRecord skipped(
            RunKey key, Trigger trigger, int schedulerAttempt, Instant at, String reason, Instant expiresAt) {
        return ended(
                inFlight(key, RunStatus.SKIPPED, 0, null, 0, trigger, schedulerAttempt, null, expiresAt),
                RunStatus.SKIPPED,
                at,
                reason,
                expiresAt);
    }

    /**
     * An operator's skip as planned (decision 0033): SKIPPED, no attempt, no owner; who and why on the
     * record and in its reason, as the run tables print it.
     */
    static RunRecord operatorSkipped(RunKey key, OperatorSkip skip, Instant expiresAt) {
        RunRecord planned = ended(
                inFlight(key, RunStatus.SKIPPED, 0, null, 0, Trigger.MANUAL, 0, null, expiresAt),
                RunStatus.SKIPPED,
                null,
                SkipReason.OPERATOR_SKIPPED.name() + ": " + skip.describe(),
                expiresAt);
        return withSkip(planned, skip, planned.trigger(), planned.schedulerAttempt(), null);
    }

    /**
     * An operator's approval as planned (decision 0041): SKIPPED, no attempt, no owner, so every reader that
     * knows skips reads it as "not run yet"; who, why and the preview on the record and in its reason. A
     * claim's record replaces it, which is what uses it.
     */
    static RunRecord approved(RunKey key, dev.punctual.ledger.Approval approval, Instant expiresAt) {
        RunRecord r = ended(
                inFlight(key, RunStatus.SKIPPED, 0, null, 0, Trigger.MANUAL, 0, null, expiresAt),
                RunStatus.SKIPPED,
                null,
                "APPROVED: " + approval.describe(),
                expiresAt);
        return new RunRecord(
                r.key(),
                r.status(),
                r.attempts(),
                r.ownerToken(),
                r.fence(),
                r.trigger(),
                r.schedulerAttempt(),
                r.startedAt(),
                r.finishedAt(),
                r.reason(),
                r.errorSummary(),
                r.resultSummary(),
                r.missedUntil(),
                r.missedCount(),
                r.expiresAt(),
                r.earlier(),
                null,
                approval);
    }

    /** The planned skip met by a delivery: when, and which delivery (its trigger and attempt). */
    static RunRecord skipActedOn(RunRecord planned, Instant at, Trigger trigger, int schedulerAttempt) {
        return withSkip(planned, planned.operatorSkip().actedOn(at), trigger, schedulerAttempt, at);
    }

    private static RunRecord withSkip(
            RunRecord r, OperatorSkip skip, Trigger trigger, int schedulerAttempt, Instant finishedAt) {
        return new RunRecord(
                r.key(),
                r.status(),
                r.attempts(),
                r.ownerToken(),
                r.fence(),
                trigger,
                schedulerAttempt,
                r.startedAt(),
                finishedAt,
                r.reason(),
                r.errorSummary(),
                r.resultSummary(),
                r.missedUntil(),
                r.missedCount(),
                r.expiresAt(),
                r.earlier(),
                skip);
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
                List.of(),
                null);
    }

    /** The job's success, with its result summary. */
    static RunRecord succeeded(RunRecord r, Instant at, String result, Instant expiry) {
        return finished(r, RunStatus.SUCCEEDED, at, null, null, result, expiry);
    }

    /** The job's failure, with its error summary. */
    static RunRecord failed(RunRecord r, Instant at, String error, Instant expiry) {
        return finished(r, RunStatus.FAILED, at, null, error, null, expiry);
    }

    /** Ended without a result of the job's own (abandoned, skipped), for a stated reason. */
    static RunRecord ended(RunRecord r, RunStatus newStatus, Instant at, String why, Instant expiry) {
        return finished(r, newStatus, at, why, null, null, expiry);
    }

    static RunRecord finished(
            RunRecord r, RunStatus newStatus, Instant at, String why, String error, String result, Instant expiry) {
        return copy(r, newStatus, r.attempts(), at, why, error, result, expiry, r.earlier());
    }

    /** The same record with another attempt count (a claim given back is no attempt). */
    static RunRecord withAttempts(RunRecord r, int count) {
        return copy(
                r,
                r.status(),
                count,
                r.finishedAt(),
                r.reason(),
                r.errorSummary(),
                r.resultSummary(),
                r.expiresAt(),
                r.earlier());
    }

    static RunRecord withEarlier(RunRecord r, List<Attempt> attempts) {
        return copy(
                r,
                r.status(),
                r.attempts(),
                r.finishedAt(),
                r.reason(),
                r.errorSummary(),
                r.resultSummary(),
                r.expiresAt(),
                attempts);
    }

    /** A record with the parts a run's life changes; who ran it, when it started and any range stay. */
    private static RunRecord copy(
            RunRecord r,
            RunStatus newStatus,
            int newAttempts,
            Instant newFinishedAt,
            String newReason,
            String newError,
            String newResult,
            Instant newExpiresAt,
            List<Attempt> newEarlier) {
        return new RunRecord(
                r.key(),
                newStatus,
                newAttempts,
                r.ownerToken(),
                r.fence(),
                r.trigger(),
                r.schedulerAttempt(),
                r.startedAt(),
                newFinishedAt,
                newReason,
                newError,
                newResult,
                r.missedUntil(),
                r.missedCount(),
                newExpiresAt,
                newEarlier,
                r.operatorSkip());
    }

    /** The earlier attempts a claim replacing {@code previous} carries: its own history plus itself. */
    static List<Attempt> attemptsAfter(Optional<RunRecord> previous) {
        if (previous.isEmpty()) {
            return List.of();
        }
        RunRecord p = previous.get();
        List<Attempt> all = new ArrayList<>(p.earlier());
        if (p.status() == RunStatus.FAILED || p.status() == RunStatus.ABANDONED || p.status() == RunStatus.SUCCEEDED) {
            all.add(attemptOf(p));
        }
        return List.copyOf(all.subList(Math.max(0, all.size() - Attempt.KEPT), all.size()));
    }

    private static Attempt attemptOf(RunRecord r) {
        String why = r.reason() != null ? r.reason() : r.errorSummary();
        String cut = why == null || why.length() <= REASON_MAX ? why : why.substring(0, REASON_MAX - 1) + "…";
        return new Attempt(
                r.attempts(), r.status(), r.fence(), r.ownerToken(), r.trigger(), r.startedAt(), r.finishedAt(), cut);
    }

    /** The record of the run a slot holds, as in flight. */
    static RunRecord asRunning(Slot slot, String jobId, Instant expiresAt) {
        return slotRecord(slot, jobId, RunStatus.RUNNING, expiresAt);
    }

    /** What the slot knows of a finished run; the run item holds the rest (times, summaries, TTL). */
    static RunRecord asFinished(Slot slot, String jobId) {
        return slotRecord(slot, jobId, slot.status(), null);
    }

    private static RunRecord slotRecord(Slot slot, String jobId, RunStatus recordStatus, Instant expiresAt) {
        return inFlight(
                new RunKey(jobId, slot.occurrence()),
                recordStatus,
                slot.attempts(),
                slot.ownerToken(),
                slot.fence(),
                slot.trigger(),
                slot.schedulerAttempt(),
                slot.startedAt(),
                expiresAt);
    }

    /**
     * The lease a lock item records, as held by {@code token}; a maintenance hold's has no fence (the
     * stored one is the last job's, which the hold leaves as it is: decision 0037).
     */
    static Lease leaseFor(LockState state, String token) {
        long fence = state.leaseKind() == dev.punctual.ledger.LeaseKind.MAINTENANCE ? Lease.NO_FENCE : state.fence();
        return new Lease(state.id(), token, fence, state.leaseAcquiredAt(), state.leaseUntil());
    }

    /** Whether a success of this claim moves the cursor forward. */
    static boolean advancesCursor(Claim claim) {
        // Only the scheduler's own deliveries move the cursor: a manual run or a replay of any instant
        // would otherwise jump it past occurrences still pending, which catch-up would then never see.
        // Catch-up skips what those runs already did (AlreadyDone), so nothing runs twice.
        return claim.trigger().fromSchedule()
                && claim.cursorBefore()
                        .map(c -> c.isBefore(claim.key().scheduledTime()))
                        .orElse(true);
    }
}
