package dev.punctual.ledger;

import java.time.Instant;
import java.util.Optional;

/** The answer to {@code punctual approve}: every case is an ordinary value (decision 0041). */
public sealed interface ApprovalPlan {

    /** Stored ahead of every claim: the next claim of the occurrence uses it, once. */
    record Planned(RunRecord record) implements ApprovalPlan {}

    /**
     * The occurrence had been delivered (or caught up) and recorded as a skip without running (UNAPPROVED,
     * say); the approval now stands in place of that record, and the occurrence runs when it is claimed
     * again: {@code punctual run JOB --at T}, or a later delivery's catch-up within the start deadline.
     */
    record PlannedAfterSkip(RunRecord record, RunRecord replacedSkip) implements ApprovalPlan {}

    /** The occurrence already carries an approval not yet used, kept as it is (one approval per occurrence). */
    record AlreadyApproved(RunRecord record) implements ApprovalPlan {}

    /** An operator skipped the occurrence (decision 0033): unskip first. */
    record OperatorSkipped(RunRecord record) implements ApprovalPlan {}

    /** A claim of the occurrence came first (running or finished): a started occurrence needs no approval. */
    record AlreadyStarted(Optional<RunRecord> record) implements ApprovalPlan {}

    /** The cursor is at or past the occurrence and nothing was recorded for it: nothing ahead to approve. */
    record BehindCursor(Instant cursor) implements ApprovalPlan {}

    /** The job already has {@code limit} approvals ahead of its cursor; each one costs every claim's write. */
    record TooMany(int limit) implements ApprovalPlan {}
}
