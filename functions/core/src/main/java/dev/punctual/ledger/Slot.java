package dev.punctual.ledger;

import java.time.Instant;

/**
 * The newest occurrence a job claimed on its fast path, kept on the job's lock item so that one
 * conditional write can claim the next occurrence without reading the run item. Only RUNNING matters
 * to logic: a RUNNING slot must be resolved (completed or recorded abandoned) before another claim.
 */
public record Slot(
        Instant occurrence,
        RunStatus status,
        int attempts,
        String ownerToken,
        long fence,
        Trigger trigger,
        int schedulerAttempt,
        Instant startedAt) {

    boolean running() {
        return status == RunStatus.RUNNING;
    }

    RunRecord asRunning(String jobId, Instant expiresAt) {
        return asRecord(jobId, RunStatus.RUNNING, expiresAt);
    }

    /** What the slot knows of a finished run; the run item holds the rest (times, summaries, TTL). */
    RunRecord asFinished(String jobId) {
        return asRecord(jobId, status, null);
    }

    private RunRecord asRecord(String jobId, RunStatus recordStatus, Instant expiresAt) {
        return RunRecord.inFlight(
                new RunKey(jobId, occurrence),
                recordStatus,
                attempts,
                ownerToken,
                fence,
                trigger,
                schedulerAttempt,
                startedAt,
                expiresAt);
    }
}
