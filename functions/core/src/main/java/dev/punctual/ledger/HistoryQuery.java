package dev.punctual.ledger;

import java.time.Instant;
import java.util.Optional;

/**
 * Which of a job's (or an entity's) occurrences {@link RunLedger#history} lists, newest first: the last
 * {@code limit}, or those at or after {@code since} (at most {@link #MAX}, the rest reported as more).
 * Always bounded, so a history is one short Query whatever the job's age.
 *
 * @param limit how many rows at most, 1 to {@link #MAX}
 * @param since the oldest occurrence wanted, or null for the last {@code limit} whatever their time
 */
public record HistoryQuery(int limit, Instant since) {

    /** The rows a history shows unless asked otherwise: about 1.5 read units of one Query (docs/cost.md). */
    public static final int DEFAULT = 20;

    /**
     * The most rows one history reads: 500 run items of about 0.5 KB are about 32 read units (0.5 per 4 KB,
     * eventually consistent), about 94 when each carries five earlier attempts (docs/cost.md).
     */
    public static final int MAX = 500;

    public HistoryQuery {
        if (limit < 1 || limit > MAX) {
            throw new IllegalArgumentException("limit: " + limit + " is out of range; accepted: 1-" + MAX);
        }
    }

    /** The last {@code n} occurrences. */
    public static HistoryQuery last(int n) {
        return new HistoryQuery(n, null);
    }

    /** The occurrences at or after {@code since}, newest first, at most {@link #MAX}. */
    public static HistoryQuery since(Instant since) {
        return new HistoryQuery(MAX, java.util.Objects.requireNonNull(since, "since"));
    }

    public Optional<Instant> from() {
        return Optional.ofNullable(since);
    }
}
