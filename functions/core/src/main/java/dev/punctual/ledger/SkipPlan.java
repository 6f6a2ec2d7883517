package dev.punctual.ledger;

import java.util.Optional;

/** The answer to {@code punctual skip}: every case is an ordinary value. */
public sealed interface SkipPlan {

    /** Stored ahead of every claim: the occurrence cannot start until it is unskipped. */
    record Planned(RunRecord record) implements SkipPlan {}

    /** The occurrence already carries an operator's skip (this one's or another's), kept as it is. */
    record AlreadySkipped(RunRecord record) implements SkipPlan {}

    /** A claim of the occurrence came first (running or finished): a started occurrence cannot be skipped. */
    record AlreadyStarted(Optional<RunRecord> record) implements SkipPlan {}

    /**
     * The job's cursor is at or past the occurrence: the scheduler's deliveries and catch-up will not
     * run it (only a replay could), so there is nothing ahead to skip.
     */
    record BehindCursor(java.time.Instant cursor) implements SkipPlan {}

    /** The job already has {@code limit} skips ahead of its cursor; each one costs every claim's write. */
    record TooMany(int limit) implements SkipPlan {}
}
