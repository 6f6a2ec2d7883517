package dev.punctual.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator's skip of one occurrence, set ahead of it (decision 0033): who, why, when it was set, and
 * when a delivery met it ({@code actedAt}, null while it is only planned). Stored on the occurrence's run
 * item, whose status is SKIPPED; the job's lock item carries the occurrence in its {@code skips} marks so
 * every claim's own write refuses it.
 */
public record OperatorSkip(String by, String why, Instant setAt, Instant actedAt) {

    public OperatorSkip {
        // Who, as a hold's setter is: redacted, however it was typed or stored (Summaries.operatorText).
        by = Summaries.operatorText(Objects.requireNonNull(by, "by"));
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(setAt, "setAt");
    }

    /** Not yet met by a delivery: it may still be removed by {@code unskip}. */
    public boolean planned() {
        return actedAt == null;
    }

    public OperatorSkip actedOn(Instant at) {
        return new OperatorSkip(by, why, setAt, at);
    }

    /** The line the outcome and run tables show. */
    public String describe() {
        return "skipped by " + by + " at " + setAt + ": " + why;
    }
}
