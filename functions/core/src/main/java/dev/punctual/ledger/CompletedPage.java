package dev.punctual.ledger;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a job's completed one-time entities (decision 0047), each confirmed against its entity's
 * item, and where the next page begins.
 *
 * @param entities at most the page's limit; fewer when notes read were dropped (the entity deleted since)
 * @param next the token of the next page ({@link CompletedShards.Position#token}); empty after the last
 * @param read how many notes the page read, kept or dropped: what its reads cost
 */
public record CompletedPage(List<CompletedEntity> entities, Optional<String> next, int read) {

    /** The largest page: each note read costs a consistent read of its entity's item. */
    public static final int MAX_LIMIT = 1000;

    public CompletedPage {
        entities = List.copyOf(entities);
        Objects.requireNonNull(next, "next");
    }
}
