package dev.punctual.ledger;

import java.util.Optional;

/** Recording a skip never overwrites a run, a failure or a success. */
public sealed interface SkipResult {

    record Recorded(RunRecord record) implements SkipResult {}

    /** The occurrence already had a more telling record, which is kept. */
    record Kept(Optional<RunRecord> existing) implements SkipResult {}
}
