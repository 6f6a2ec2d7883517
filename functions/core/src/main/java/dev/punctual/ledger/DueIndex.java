package dev.punctual.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The ledger's index of per-entity occurrences expected next (decision 0031): each completion of an
 * entity's occurrence notes the entity's next one, so an entity still listed under an occurrence long
 * past is a candidate for a missed delivery. The watchdog reads candidates, not entities: its reads
 * grow with what went wrong, not with the number of schedules. Implementations: DynamoDB (a sparse
 * index on the ledger table) and the test kit's in-memory store; both pass the test kit's
 * {@code DueIndexContract}.
 */
public interface DueIndex {

    /**
     * The entities whose noted next occurrence lies in {@code (after, upTo]}, as noted by their last
     * completion, in no particular order. The index may lag the ledger by a moment (DynamoDB's indexes
     * are eventually consistent), so a caller confirms each candidate against the ledger.
     */
    List<Expected> expectedBetween(Instant after, Instant upTo);

    /** One entity's expected occurrence: its ledger id ({@code job:entity}) and the occurrence. */
    record Expected(String ledgerId, Instant occurrence) {
        public Expected {
            Objects.requireNonNull(ledgerId, "ledgerId");
            Objects.requireNonNull(occurrence, "occurrence");
        }
    }

    /** For tools and catalogs without a per-entity job: nothing is ever expected. */
    DueIndex NONE = (after, upTo) -> List.of();
}
