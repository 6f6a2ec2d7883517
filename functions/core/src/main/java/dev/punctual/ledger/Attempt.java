package dev.punctual.ledger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One earlier attempt at an occurrence, kept on its run item when a later claim replaces the record,
 * so an abandoned, fenced or failed attempt (or a success a forced run repeated) leaves a trace.
 *
 * @param reason why it ended that way: the record's reason (ABANDONED, FENCED) or else its error, cut
 *     to {@link #REASON_MAX} characters (run items are billed per KB)
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

    static final int REASON_MAX = 200;

    /** The earlier attempts a claim replacing {@code previous} carries: its own history plus itself. */
    static List<Attempt> after(Optional<RunRecord> previous) {
        if (previous.isEmpty()) {
            return List.of();
        }
        RunRecord p = previous.get();
        List<Attempt> all = new ArrayList<>(p.earlier());
        if (p.status() == RunStatus.FAILED || p.status() == RunStatus.ABANDONED || p.status() == RunStatus.SUCCEEDED) {
            all.add(of(p));
        }
        return List.copyOf(all.subList(Math.max(0, all.size() - KEPT), all.size()));
    }

    private static Attempt of(RunRecord r) {
        String why = r.reason() != null ? r.reason() : r.errorSummary();
        String cut = why == null || why.length() <= REASON_MAX ? why : why.substring(0, REASON_MAX - 1) + "…";
        return new Attempt(
                r.attempts(), r.status(), r.fence(), r.ownerToken(), r.trigger(), r.startedAt(), r.finishedAt(), cut);
    }
}
