package dev.punctual.ledger;

import java.util.List;
import java.util.Objects;

/**
 * A job's (or an entity's) recent occurrences as {@link RunLedger#history} read them: newest first, a missed
 * range as one record (its first occurrence, {@link RunRecord#missedUntil()} and count), an occurrence in
 * flight on the slot as RUNNING.
 *
 * @param rows at most the query's limit
 * @param more whether the bound cut the list: older occurrences (or, with since, more of them) are stored
 */
public record History(String ledgerId, List<RunRecord> rows, boolean more) {

    public History {
        Objects.requireNonNull(ledgerId, "ledgerId");
        rows = List.copyOf(rows);
    }
}
