package dev.punctual.job;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the run ledger recorded, read only: for jobs that watch the others (the built-in missed-run
 * watchdog). It exposes no ledger type, so the job API stays free of the ledger's internals.
 */
public interface RunHistory {

    /** The last occurrence the job completed (or recorded as missed); empty before its first. */
    Optional<Instant> cursor(String job);

    /**
     * When the job's last success was recorded (its lock item's {@code lastSuccessAt}, written by the
     * success's own completion, decision 0042); empty before its first, or when it last succeeded before
     * the ledger kept it.
     */
    default Optional<Instant> lastSuccess(String job) {
        return Optional.empty();
    }

    /** Whether the occurrence has a run item of any kind: success, failure, skip, missed, in flight. */
    boolean recorded(String job, Instant occurrence);

    /**
     * The result summary a completed run recorded (the job's {@code JobResult}, as JSON), if any: how
     * the watchdog reads back what its previous run noted.
     */
    default Optional<String> resultSummary(String job, Instant occurrence) {
        return Optional.empty();
    }

    /**
     * The per-entity occurrences expected in {@code (after, upTo]} that no completion has moved past since
     * (the ledger's due index, decision 0031): candidates for a missed delivery, each to be confirmed
     * with {@link #recorded}. Empty for a history without the index (a catalog without per-entity jobs).
     */
    default List<ExpectedOccurrence> expectedBetween(Instant after, Instant upTo) {
        return List.of();
    }

    /**
     * Whether the entity of a ledger id {@code job:entity} is deleted (its delete's tombstone stands, until
     * a put clears it): its schedule is gone, so an occurrence it no longer gets is not missed.
     */
    default boolean entityDeleted(String ledgerId) {
        return false;
    }

    /** An entity's expected occurrence: its ledger id ({@code job:entity}) and the occurrence. */
    record ExpectedOccurrence(String ledgerId, Instant occurrence) {
        public ExpectedOccurrence {
            Objects.requireNonNull(ledgerId, "ledgerId");
            Objects.requireNonNull(occurrence, "occurrence");
        }
    }
}
