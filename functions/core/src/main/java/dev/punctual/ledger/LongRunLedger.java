package dev.punctual.ledger;

import java.util.List;
import java.util.Optional;

/**
 * What the ledger keeps of a long occurrence (decision 0039), beside its run item: the execution that
 * runs it, and one record per chunk. Every write is fenced by the claim's lease, as a completion is: it
 * applies only while the lease is the caller's (its owner token and fence, not yet ended at the caller's
 * now), so a step of an execution whose claim was taken over writes nothing.
 */
public interface LongRunLedger {

    /**
     * Notes (or replaces) the occurrence's execution under the lease: the starter after its start, the plan
     * step with the number of chunks planned. Safe to send again.
     */
    Noted noteExecution(Lease lease, ExecutionRecord execution);

    /** The execution noted for the occurrence, if any (a consistent read). */
    Optional<ExecutionRecord> execution(RunKey key);

    /**
     * The executions noted for a job's (or an entity's) newest occurrences, newest first, at most {@code
     * limit}: one consistent Query of its {@code long#} partition. {@code status} finds a running long
     * occurrence older than the newest this way (a manual run, a replay).
     */
    List<ExecutionRecord> recentExecutions(String ledgerId, int limit);

    /**
     * Records one attempt of a chunk under the lease. A success is recorded once: a chunk already recorded
     * as succeeded is never changed (answered {@link ChunkWrite.AlreadySucceeded}); a failure counts the
     * attempt and keeps the error (the chunk may be tried again). Each applied write counts one attempt.
     */
    ChunkWrite recordChunk(Lease lease, RunKey key, String chunk, ChunkOutcome outcome);

    /** One chunk's record (a consistent read); empty before its first recorded attempt. */
    Optional<ChunkRecord> chunk(RunKey key, String chunk);

    /** Every chunk record of the occurrence, in key order (consistent, all pages). */
    List<ChunkRecord> chunks(RunKey key);

    /** Whether a fenced write applied. */
    enum Noted {
        NOTED,
        /** The lease was no longer the caller's: nothing was written. */
        FENCED
    }
}
