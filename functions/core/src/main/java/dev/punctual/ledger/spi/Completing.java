package dev.punctual.ledger.spi;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Summaries;
import java.time.Instant;
import java.util.Optional;

/**
 * Fenced completion: the final record, the lease release and the cursor advance commit together, and
 * only while the lease is ours. A completion that lost its lease is a failure, never a success.
 */
final class Completing {

    private final LedgerStore store;
    private final Retention retention;

    Completing(LedgerStore store, Retention retention) {
        this.store = store;
        this.retention = retention;
    }

    CompletionResult complete(Claim claim, Outcome outcome, Instant now, Optional<NextDue> next) {
        RunRecord record = finalRecord(claim, outcome, now);
        boolean advance = record.status() == RunStatus.SUCCEEDED && Records.advancesCursor(claim);
        CompletionPlan plan = new CompletionPlan(
                record, claim.lease(), claim.onSlot(), advance, now, next.filter(n -> newest(claim)));
        Commit commit = commit(plan);
        if (commit == Commit.CURSOR_AHEAD) {
            commit = commit(plan.withoutCursorAdvance());
        }
        if (commit == Commit.COMMITTED || storedAsOurs(record)) {
            return new CompletionResult.Completed(record);
        }
        return fenced(claim, record, now);
    }

    /**
     * The due watch's note is the newest occurrence's: whatever its outcome (a failure, a claim given
     * back, was delivered), but not a replay below the cursor, which would move the note back.
     */
    private static boolean newest(Claim claim) {
        return claim.cursorBefore()
                .map(c -> c.isBefore(claim.key().scheduledTime()))
                .orElse(true);
    }

    private Commit commit(CompletionPlan plan) {
        return ReadBack.write("complete " + plan.record().key(), () -> store.commit(plan), () -> readBack(plan));
    }

    /**
     * After an unknown outcome: our record stored means committed; the lease gone means fenced; the
     * lease still ours means nothing was applied and the same transaction (same token) may be sent again.
     */
    private Optional<Commit> readBack(CompletionPlan plan) {
        if (storedAsOurs(plan.record())) {
            return Optional.of(Commit.COMMITTED);
        }
        LockState lock = store.readLock(plan.lease().group());
        boolean stillOurs = plan.lease().ownerToken().equals(lock.leaseOwner()) && lock.leaseHeldAt(plan.now());
        return stillOurs ? Optional.empty() : Optional.of(Commit.LEASE_LOST);
    }

    private boolean storedAsOurs(RunRecord record) {
        return store.readRun(record.key()).filter(record::equals).isPresent();
    }

    private CompletionResult fenced(Claim claim, RunRecord attempted, Instant now) {
        String why = "FENCED: lease " + claim.fence() + " of " + claim.lease().group()
                + " was no longer ours at completion; the job reported " + attempted.status();
        RunRecord failed = Records.finished(
                attempted,
                RunStatus.FAILED,
                now,
                why,
                attempted.errorSummary(),
                attempted.resultSummary(),
                retention.expiryOf(RunStatus.FAILED, now));
        boolean stored = ReadBack.write(
                "record fenced " + claim.key(),
                () -> store.recordFenced(failed, claim.onSlot()),
                () -> store.readRun(claim.key()).filter(failed::equals).map(r -> true));
        return new CompletionResult.Fenced(failed, stored);
    }

    /**
     * A claim given back without running is not an attempt: the record it replaced comes back as it was
     * (a failure keeps its attempts and error), and a fresh occurrence is recorded as a skip with none.
     */
    private RunRecord givenBack(Claim claim, Outcome.Skipped k, RunRecord running, Instant now) {
        if (claim.previous().isPresent()) {
            return claim.previous().get();
        }
        if (claim.approvalUsed()) {
            // A fresh claim used the approval's mark but never wrote the run item, which still holds the
            // planned approval: restored as it was, the next claim (which reads the run item, the slot now
            // at this occurrence) uses it. One read, only on this give-back of a job needing approval.
            Optional<RunRecord> planned =
                    store.readRun(claim.key()).filter(r -> r.plannedApproval().isPresent());
            if (planned.isPresent()) {
                return planned.get();
            }
        }
        String reason = k.reason().name() + (k.detail() == null ? "" : ": " + Summaries.sanitise(k.detail()));
        return Records.withAttempts(
                Records.ended(running, RunStatus.SKIPPED, now, reason, retention.expiryOf(RunStatus.SKIPPED, now)), 0);
    }

    private RunRecord finalRecord(Claim claim, Outcome outcome, Instant now) {
        RunRecord running = Records.running(claim, null);
        return switch (outcome) {
            case Outcome.Succeeded s ->
                Records.succeeded(
                        running,
                        now,
                        Summaries.sanitise(s.resultSummary()),
                        retention.expiryOf(RunStatus.SUCCEEDED, now));
            case Outcome.Failed f ->
                Records.failed(
                        running, now, Summaries.sanitise(f.errorSummary()), retention.expiryOf(RunStatus.FAILED, now));
            case Outcome.Skipped k -> givenBack(claim, k, running, now);
        };
    }
}
