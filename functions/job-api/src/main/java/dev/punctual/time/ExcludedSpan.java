package dev.punctual.time;

import java.time.Instant;
import java.util.Objects;

/**
 * A stretch of time in which a job has no occurrences because a calendar or a blackout window takes them
 * out (decision 0034): an occurrence at {@code from} is excluded, one at {@code until} is not.
 *
 * @param kind which control excluded it: it becomes the skip's reason
 * @param why one line for people, e.g. {@code calendar kr-public-holidays: 2027-01-01 New Year's Day}
 */
public record ExcludedSpan(Instant from, Instant until, Kind kind, String why) {

    /** The control behind a span, each recorded as its own skip reason. */
    public enum Kind {
        /** A date a calendar excludes (a holiday, or a weekend under a business-days rule). */
        CALENDAR,
        /** A blackout window, one-off or recurring. */
        BLACKOUT
    }

    public ExcludedSpan {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(until, "until");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(why, "why");
        if (!until.isAfter(from)) {
            throw new IllegalArgumentException("an excluded span ends after it starts: " + from + " .. " + until);
        }
    }

    /** Whether the instant lies in [from, until). */
    public boolean contains(Instant instant) {
        return !instant.isBefore(from) && instant.isBefore(until);
    }
}
