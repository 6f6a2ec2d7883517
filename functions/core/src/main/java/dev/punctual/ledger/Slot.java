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

    /** Whether the slot's run is still in flight (to be completed or recorded abandoned before another claim). */
    public boolean running() {
        return status == RunStatus.RUNNING;
    }
}
