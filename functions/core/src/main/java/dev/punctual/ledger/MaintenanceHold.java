package dev.punctual.ledger;

import dev.punctual.observability.Redactor;
import dev.punctual.observability.VisibleText;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * Why maintenance holds a group, who set it and when it lapses on its own. The reason is read back by
 * every operator ({@code status}, the refusals that name a hold) and recorded in every run it skips, so
 * it is redacted the way a job's text is, whoever built the hold: a reason typed with a password in it
 * is stored masked, and one stored unmasked (by an older CLI, or by hand) is read back masked.
 */
public record MaintenanceHold(String reason, String setBy, Instant until) {

    private static final Redactor REDACTOR = Redactor.standard();

    public MaintenanceHold {
        reason = REDACTOR.text(Objects.requireNonNull(reason, "reason"));
        Objects.requireNonNull(setBy, "setBy");
        until = Objects.requireNonNull(until, "until").truncatedTo(ChronoUnit.MILLIS);
    }

    /** The reason for a line people read: a hold stored by hand may hold a newline or an ANSI escape. */
    public String shownReason() {
        return VisibleText.escaped(reason);
    }

    /** Who set it, for a line people read. */
    public String shownSetBy() {
        return VisibleText.escaped(setBy);
    }

    /** {@code set by WHO: REASON, until T}, on one line whatever the item holds. */
    public String shown() {
        return "set by " + shownSetBy() + ": " + shownReason() + ", until " + until;
    }
}
