package dev.punctual.ledger;

/** The answer to recording a chunk's attempt: every case an ordinary value. */
public sealed interface ChunkWrite {

    /** The attempt was recorded; the record as stored now. */
    record Recorded(ChunkRecord record) implements ChunkWrite {}

    /** The chunk had already succeeded: nothing was written (a redelivered chunk). */
    record AlreadySucceeded(ChunkRecord record) implements ChunkWrite {}

    /** The lease was no longer the caller's (a newer claim, or it ended): nothing was written. */
    record Fenced() implements ChunkWrite {}
}
