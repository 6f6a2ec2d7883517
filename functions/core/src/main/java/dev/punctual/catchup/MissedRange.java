package dev.punctual.catchup;

import java.time.Instant;

/**
 * Occurrences given up without running: every occurrence from {@code first} to {@code last}
 * inclusive, {@code count} of them. One record however long the outage was.
 */
public record MissedRange(Instant first, Instant last, long count) {
    public MissedRange {
        if (count < 1 || last.isBefore(first) || (count == 1 && !first.equals(last))) {
            throw new IllegalArgumentException("inconsistent missed range " + first + ".." + last + " x" + count);
        }
    }
}
