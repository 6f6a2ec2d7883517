package dev.punctual.ledger;

import java.util.Objects;

/** How the job's work ended, as reported to {@link RunLedger#complete}. */
public sealed interface Outcome {

    /** @param resultSummary the job's small, secret-free summary (at most {@link Summaries#MAX} chars kept) */
    record Succeeded(String resultSummary) implements Outcome {}

    /** @param errorSummary already sanitised, e.g. with {@link Summaries#ofError(Throwable)} */
    record Failed(String errorSummary) implements Outcome {}

    /** The job decided not to act after claiming (e.g. a destructive job refused in this stage). */
    record Skipped(SkipReason reason, String detail) implements Outcome {
        public Skipped {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
