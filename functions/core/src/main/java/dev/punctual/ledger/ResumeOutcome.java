package dev.punctual.ledger;

import java.util.Optional;

/** What {@code punctual resume} did (decision 0040). */
public sealed interface ResumeOutcome {

    /** {@code before} was lifted; {@code after} is the ended span kept (SKIP_PAUSED), empty when removed. */
    record Resumed(PauseMark before, Optional<PauseMark> after) implements ResumeOutcome {}

    /** Nothing paused this item (or another resume came first). */
    record NotPaused() implements ResumeOutcome {}
}
