package dev.punctual.ledger.spi;

import dev.punctual.PunctualException;
import dev.punctual.ledger.ChunkOutcome;
import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ChunkWrite;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.LongRunLedger;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Summaries;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The long-occurrence records (decision 0039) over the store, as the engine builds its other operations:
 * each write is one fenced store request, and one whose outcome is unknown is read back, never assumed.
 * Times come from the engine's clock ({@code now}, in milliseconds), expiries from its retention.
 */
final class LongRuns implements LongRunLedger {

    /**
     * How many times one chunk write may meet another write of the same chunk between its read and its
     * write. Each meeting means another write landed, and a chunk has a handful of attempts (a long job's
     * {@code maxAttempts} is at most 5, each from one invocation), so meeting more is a fault, not contention.
     */
    static final int MOST_CHANGES_MET = 32;

    private final LedgerStore store;
    private final Supplier<Instant> clock;
    private final Retention retention;

    /** A fresh token per chunk write (the engine's owner tokens): whose attempt a stored record is. */
    private final Supplier<String> tokens;

    LongRuns(LedgerStore store, Supplier<Instant> clock, Retention retention, Supplier<String> tokens) {
        this.tokens = tokens;
        this.store = Objects.requireNonNull(store);
        this.clock = Objects.requireNonNull(clock);
        this.retention = Objects.requireNonNull(retention);
    }

    /**
     * The record is stored as given, at the stores' precision (start in milliseconds, expiry in the TTL's
     * seconds), so what is read back equals what was noted. Without an expiry it gets the run item's while
     * it runs (the failure retention: it must outlive any investigation of the occurrence).
     */
    @Override
    public Noted noteExecution(Lease lease, ExecutionRecord execution) {
        requireFenced(lease);
        if (execution.fence() != lease.fence()) {
            // A record names the claim that started it; noting it under another claim's lease would lie.
            throw new IllegalArgumentException("noteExecution: the record's fence " + execution.fence()
                    + " is not the lease's " + lease.fence() + " (" + execution.key() + ")");
        }
        Instant now = clock.get();
        ExecutionRecord record = atStorePrecision(execution, now);
        boolean noted = ReadBack.write(
                "note execution of " + execution.key(),
                () -> store.noteExecution(lease, now, record),
                // Stored as ours: noted. Not stored and the lease gone: fenced. Neither: not applied, send again.
                () -> store.readExecution(record.key())
                        .filter(record::equals)
                        .map(r -> true)
                        .or(() -> leaseOurs(lease, now) ? Optional.empty() : Optional.of(false)));
        return noted ? Noted.NOTED : Noted.FENCED;
    }

    private ExecutionRecord atStorePrecision(ExecutionRecord e, Instant now) {
        Instant expires = e.expiresAt() == null
                ? retention.expiryOf(RunStatus.RUNNING, now)
                : e.expiresAt().truncatedTo(ChronoUnit.SECONDS);
        return new ExecutionRecord(
                e.key(),
                e.name(),
                e.arn(),
                e.fence(),
                e.startedAt().truncatedTo(ChronoUnit.MILLIS),
                e.planned(),
                expires);
    }

    @Override
    public Optional<ExecutionRecord> execution(RunKey key) {
        return store.readExecution(key);
    }

    @Override
    public List<ExecutionRecord> recentExecutions(String ledgerId, int limit) {
        if (limit < 1 || limit > 100) {
            throw new IllegalArgumentException("limit must be 1 to 100, was " + limit);
        }
        return store.readRecentExecutions(ledgerId, limit);
    }

    /**
     * One read, then one fenced write conditional on what was read. A write that met another write of the
     * chunk (a redelivered chunk racing its twin) starts again from the chunk as that answer showed it: a
     * success there is answered {@link ChunkWrite.AlreadySucceeded}, a failure counted on top of.
     */
    @Override
    public ChunkWrite recordChunk(Lease lease, RunKey key, String chunk, ChunkOutcome outcome) {
        requireFenced(lease);
        requireChunkKey(chunk);
        Objects.requireNonNull(outcome, "outcome");
        Instant now = clock.get();
        // This call's own token on every attempt it writes: a resend that meets it knows its own write.
        String writer = tokens.get();
        Optional<ChunkRecord> seen = store.readChunk(key, chunk);
        for (int met = 0; met <= MOST_CHANGES_MET; met++) {
            if (seen.isPresent() && seen.get().succeeded()) {
                return new ChunkWrite.AlreadySucceeded(seen.get());
            }
            ChunkRecord attempt = attempt(key, chunk, seen, lease.fence(), now, outcome, writer);
            ChunkPut put = put(lease, now, attempt, seen);
            switch (put) {
                case ChunkPut.Applied applied -> {
                    return new ChunkWrite.Recorded(attempt);
                }
                case ChunkPut.Fenced fenced -> {
                    return new ChunkWrite.Fenced();
                }
                case ChunkPut.Changed changed -> {
                    // Our own write, stored by a send whose answer was lost and that the SDK sent again: the
                    // resend met it. Recorded, once (decision 0039; found by the Jepsen-style suite).
                    if (changed.stored().filter(attempt::equals).isPresent()) {
                        return new ChunkWrite.Recorded(attempt);
                    }
                    seen = changed.stored();
                }
            }
        }
        throw new PunctualException("record chunk " + chunk + " of " + key + ": met " + MOST_CHANGES_MET
                + " other writes of the chunk between its read and its write; expected a few (one per attempt)");
    }

    /**
     * After an unknown outcome: our record stored means applied; another record than the one we read means
     * another write came (Changed, as the store would have answered); the lease gone means fenced; otherwise
     * nothing was applied and the same write (same condition) may be sent again.
     */
    private ChunkPut put(Lease lease, Instant now, ChunkRecord attempt, Optional<ChunkRecord> seen) {
        return ReadBack.write(
                "record chunk " + attempt.chunk() + " of " + attempt.key(),
                () -> store.putChunk(lease, now, attempt, seen),
                () -> {
                    Optional<ChunkRecord> stored = store.readChunk(attempt.key(), attempt.chunk());
                    if (stored.filter(attempt::equals).isPresent()) {
                        return Optional.of(new ChunkPut.Applied());
                    }
                    if (!stored.equals(seen)) {
                        return Optional.of(new ChunkPut.Changed(stored));
                    }
                    return leaseOurs(lease, now) ? Optional.empty() : Optional.of(new ChunkPut.Fenced());
                });
    }

    /** The attempt counted on top of what was read; summaries sanitised as a run record's are. */
    private ChunkRecord attempt(
            RunKey key,
            String chunk,
            Optional<ChunkRecord> seen,
            long fence,
            Instant now,
            ChunkOutcome outcome,
            String writer) {
        int attempts = seen.map(ChunkRecord::attempts).orElse(0) + 1;
        return switch (outcome) {
            case ChunkOutcome.Succeeded s ->
                new ChunkRecord(
                        key,
                        chunk,
                        ChunkRecord.Status.SUCCEEDED,
                        attempts,
                        fence,
                        now,
                        null,
                        Summaries.sanitise(s.summary()),
                        retention.expiryOf(RunStatus.SUCCEEDED, now),
                        writer);
            case ChunkOutcome.Failed f ->
                new ChunkRecord(
                        key,
                        chunk,
                        ChunkRecord.Status.FAILED,
                        attempts,
                        fence,
                        now,
                        Summaries.sanitise(f.error()),
                        null,
                        retention.expiryOf(RunStatus.FAILED, now),
                        writer);
        };
    }

    @Override
    public Optional<ChunkRecord> chunk(RunKey key, String chunk) {
        return store.readChunk(key, requireChunkKey(chunk));
    }

    @Override
    public List<ChunkRecord> chunks(RunKey key) {
        return store.readChunks(key);
    }

    /** The write's own condition, LEASE_OURS_AT_FENCE, on the stored group item. */
    private boolean leaseOurs(Lease lease, Instant now) {
        LockState lock = store.readLock(lease.group());
        return lease.ownerToken().equals(lock.leaseOwner()) && lock.leaseHeldAt(now) && lock.fence() == lease.fence();
    }

    /** A maintenance hold has no fence (decision 0037): it runs no occurrence, so it notes none. */
    private static void requireFenced(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        if (!lease.fenced()) {
            throw new IllegalArgumentException(
                    "a long occurrence's records are written under a job's or an entity's lease (a fence of its own);"
                            + " a maintenance hold of " + lease.group() + " has none");
        }
    }

    /**
     * A chunk key is the chunk item's sort key, so it must not be empty. Which keys a plan may list
     * ({@code LongRun.acceptedKey} in the job API) is the plan step's check, before any is recorded: the
     * ledger's packages may not depend on dev.punctual.job (DependencyRulesTest).
     */
    private static String requireChunkKey(String chunk) {
        if (chunk == null || chunk.isEmpty()) {
            throw new IllegalArgumentException(
                    "chunk key: a key the occurrence's plan listed is required, was '" + chunk + "'");
        }
        return chunk;
    }
}
