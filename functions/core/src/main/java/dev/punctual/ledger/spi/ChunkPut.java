package dev.punctual.ledger.spi;

import dev.punctual.ledger.ChunkRecord;
import java.util.Optional;

/**
 * The answer of the store's fenced chunk write ({@link LedgerStore#putChunk}): one atomic request with two
 * conditions, the chunk as the caller read it and the lease still the caller's. When both fail, the chunk's
 * answer comes first: it may show the chunk succeeded, which is the answer whoever holds the lease.
 */
public sealed interface ChunkPut {

    /** Both conditions held: the record is stored. */
    record Applied() implements ChunkPut {}

    /**
     * Another write of the chunk came between the caller's read and its write (or it succeeded meanwhile):
     * nothing was written; the chunk as stored now (empty: none).
     */
    record Changed(Optional<ChunkRecord> stored) implements ChunkPut {}

    /** The lease was no longer the caller's (LEASE_OURS_AT_FENCE): nothing was written. */
    record Fenced() implements ChunkPut {}
}
