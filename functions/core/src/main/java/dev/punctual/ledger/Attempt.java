package dev.punctual.ledger;

import java.time.Instant;

/**
 * One earlier attempt at an occurrence, kept on its run item when a later claim replaces the record,
 * so an abandoned, fenced or failed attempt (or a success a forced run repeated) leaves a trace.
 *
 * @param reason why it ended that way: the record's reason (ABANDONED, FENCED) or else its error, cut
 *     to 200 characters (run items are billed per KB)
 */
public record Attempt(
        int attempt,
        RunStatus status,
        long fence,
        String ownerToken,
        Trigger trigger,
        Instant startedAt,
        Instant finishedAt,
        String reason) {

    /** Attempts kept per occurrence, newest last; older ones are dropped. */
    public static final int KEPT = 5;
}
