package dev.punctual.ledger;

/** How one attempt of a chunk ended, as reported to {@link LongRunLedger#recordChunk}. */
public sealed interface ChunkOutcome {

    /** @param summary the chunk's small result summary, or null */
    record Succeeded(String summary) implements ChunkOutcome {}

    /** @param error the failure, already sanitised */
    record Failed(String error) implements ChunkOutcome {}
}
