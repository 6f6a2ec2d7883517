package dev.punctual.entities;

import dev.punctual.ledger.LockState;
import dev.punctual.ledger.RunStatus;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * An entity whose schedule is gone from the group while the ledger holds a delivered occurrence of it and no
 * tombstone (decision 0043): what a one-time {@code at()} schedule leaves after the scheduler deleted it
 * following its delivery (ActionAfterCompletion DELETE). The answer comes from the ledger, not the scheduler.
 *
 * <p>The ledger keeps no expression, so "one-time" is inferred, not read: a recurring schedule removed
 * outside Punctual (by hand, with its group) reads the same here. Its due note stays, so the watchdog still
 * reports its next occurrence as overdue (decision 0031), which a completed {@code at()} (its note removed by
 * its completion) never is.
 *
 * @param occurrence the newest occurrence the ledger holds for the entity (its slot's, else its cursor)
 * @param status that occurrence's status: SUCCEEDED, FAILED, SKIPPED, ABANDONED, or RUNNING while in flight
 *     (the scheduler deletes a schedule once it has delivered, whatever the run then does); empty when the
 *     slot has moved on and the run item at the cursor has passed its retention
 */
public record CompletedSchedule(String job, String entity, Instant occurrence, Optional<RunStatus> status) {

    public CompletedSchedule {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(occurrence, "occurrence");
        Objects.requireNonNull(status, "status");
    }

    /**
     * From the entity's ledger item: empty when it was never delivered (no slot, no cursor) or was deleted
     * (a tombstone: its schedule went with the delete, not after a completion).
     *
     * @param runStatus the status of the run item at the cursor, for an item whose slot is behind it (a
     *     cursor moved by a missed range or a replay)
     */
    static Optional<CompletedSchedule> from(
            String job, String entity, LockState state, Function<Instant, Optional<RunStatus>> runStatus) {
        if (state.tombstone() != null) {
            return Optional.empty();
        }
        if (state.slot() != null
                && (state.cursor() == null || !state.slot().occurrence().isBefore(state.cursor()))) {
            return Optional.of(new CompletedSchedule(
                    job,
                    entity,
                    state.slot().occurrence(),
                    Optional.of(state.slot().status())));
        }
        if (state.cursor() != null) {
            Instant cursor = state.cursor();
            return Optional.of(new CompletedSchedule(job, entity, cursor, runStatus.apply(cursor)));
        }
        return Optional.empty();
    }
}
