package dev.punctual.ledger;

import java.util.Optional;

/** The answer to {@code punctual unskip}. */
public sealed interface Unskip {

    /** The planned skip is gone: the occurrence runs as scheduled (or by catch-up, if already due). */
    record Removed(RunRecord removed) implements Unskip {}

    /** A delivery already met the skip: it took effect, and is kept as the occurrence's record. */
    record AlreadyActed(RunRecord record) implements Unskip {}

    /** No operator's skip on the occurrence (what is stored, if anything). */
    record NotSkipped(Optional<RunRecord> record) implements Unskip {}
}
