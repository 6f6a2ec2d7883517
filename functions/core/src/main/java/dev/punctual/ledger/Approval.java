package dev.punctual.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator's approval of one occurrence (decision 0041): who, why, when, and the preview they saw (the
 * job's dry-run counts, short). Stored on the occurrence's run item, whose status stays SKIPPED with no
 * attempt until a claim uses it; the job's (or entity's) lock item carries the occurrence in its
 * {@code approvals} marks, which the claim's own write checks and removes.
 */
public record Approval(String by, String why, Instant at, String preview) {

    /** The longest preview kept on the run item: the counts, never the job's output. */
    public static final int PREVIEW_CHARS = 300;

    public Approval {
        // Who and why, as a skip's: redacted, however they were typed or stored.
        by = Summaries.operatorText(Objects.requireNonNull(by, "by"));
        why = Summaries.operatorText(why == null ? "" : why);
        Objects.requireNonNull(at, "at");
        preview = Summaries.sanitise(preview == null ? "" : preview);
        if (preview.length() > PREVIEW_CHARS) {
            preview = preview.substring(0, PREVIEW_CHARS - 1) + "…";
        }
    }

    /** The line status and the outcome show. */
    public String describe() {
        return "approved by " + by + " at " + at + (why.isEmpty() ? "" : ": " + why)
                + (preview.isEmpty() ? "" : " (preview: " + preview + ")");
    }
}
