package dev.punctual.ledger;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An operator's pause (decision 0040) on a lock item: a job's own ({@code lock#<job>}), a lock group's, or
 * an entity's ({@code lock#<job>:<entity>}). Every write that takes a lease or claims on that item is
 * refused while it holds, and after it ended without catch-up for occurrences inside its span.
 *
 * @param from the ledger's clock when the pause was set; the span starts here
 * @param until when it ends by itself; empty: until resumed
 * @param by who paused, redacted
 * @param why why, redacted
 * @param catchUp whether the span's occurrences may be caught up once it ended (else they stay refused)
 */
public record PauseMark(Instant from, Optional<Instant> until, String by, String why, boolean catchUp) {

    public PauseMark {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(until, "until");
        // Who and why, as a hold's and a skip's: redacted, however they were typed or stored.
        by = Summaries.operatorText(Objects.requireNonNull(by, "by"));
        why = Summaries.operatorText(Objects.requireNonNull(why, "why"));
        if (until.isPresent() && until.get().isBefore(from)) {
            throw new IllegalArgumentException(
                    "a pause cannot end before it starts: from " + from + ", until " + until.get());
        }
    }

    /** Mirrors NOT_PAUSED's first half: no end, or an end after {@code now}. */
    public boolean holdsAt(Instant now) {
        return until.isEmpty() || until.get().isAfter(now);
    }

    /**
     * Mirrors NOT_PAUSED: refused while the pause holds; after it ended, refused only inside the span
     * {@code [from, until)} and only when the span is not caught up.
     */
    public boolean refuses(Instant occurrence, Instant now) {
        if (holdsAt(now)) {
            return true;
        }
        return !catchUp && !occurrence.isBefore(from) && occurrence.isBefore(until.orElseThrow());
    }

    /** {@code resume --skip-paused}: the span ends now (or where it already ended) and is not caught up. */
    public PauseMark endedWithoutCatchUp(Instant now) {
        // A clock behind the pause's start (another machine's) ends it where it started: an empty span.
        Instant end = holdsAt(now) ? (now.isBefore(from) ? from : now) : until.orElseThrow();
        return new PauseMark(from, Optional.of(end), by, why, false);
    }

    /** One line for skip details, status and logs: who, since when, until when, why. */
    public String describe() {
        return "paused by " + by + " since " + from
                + until.map(u -> " until " + u).orElse("") + ": " + why;
    }
}
