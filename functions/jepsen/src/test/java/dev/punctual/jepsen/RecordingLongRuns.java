package dev.punctual.jepsen;

import dev.punctual.ledger.ChunkOutcome;
import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ChunkWrite;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LongRunLedger;
import dev.punctual.ledger.RunKey;
import java.util.List;
import java.util.Optional;

/**
 * A process's long-run records (decision 0039), through its {@link RecordingLedger}: every write is
 * recorded (the execution's note as EXEC_NOTE, a chunk's attempt as CHUNK), with its answer or ERROR when
 * unknown; reads pass through unrecorded. Before a chunk's attempt is recorded the worker may halt the
 * process ({@link RecordingLedger.LongKills#beforeChunkRecord}): the chunk's side effect landed, its record
 * never will, as a Lambda killed there would leave it. A chunk's record is announced (CHUNK_INTENT) before
 * it is sent: the chunks run at once, and a halt on one chunk's thread may cut another's record off from
 * its answer after the record landed (a CI run's history showed it, under load).
 */
final class RecordingLongRuns implements LongRunLedger {

    private final RecordingLedger ledger;
    private final RecordingLedger.LongKills kills;

    RecordingLongRuns(RecordingLedger ledger, RecordingLedger.LongKills kills) {
        this.ledger = ledger;
        this.kills = kills;
    }

    @Override
    public Noted noteExecution(Lease lease, ExecutionRecord execution) {
        Op.Builder base = ledger.op(Op.Kind.EXEC_NOTE)
                .occurrence(
                        execution.key().jobId(), execution.key().scheduledTime().toEpochMilli(), lease.group())
                .lease(lease.fence(), lease.ownerToken(), lease.expiresAt().toEpochMilli())
                .execution(execution.name())
                .attempt(execution.planned());
        return ledger.recorded(() -> ledger.inner().noteExecution(lease, execution), r -> base.result(r.name()), base);
    }

    @Override
    public ChunkWrite recordChunk(Lease lease, RunKey key, String chunk, ChunkOutcome outcome) {
        kills.beforeChunkRecord(lease, key, chunk, outcome);
        long t0 = RecordingLedger.nowMicros();
        long c0 = ledger.clockMillis();
        // The intent first, handed to the kernel before the request leaves: the chunks run at once, and
        // another chunk's thread may halt the process while this record is in flight, after it landed.
        ledger.write(chunkOp(Op.Kind.CHUNK_INTENT, lease, key, chunk, outcome).times(t0, t0, c0, c0));
        Op.Builder base = chunkOp(Op.Kind.CHUNK, lease, key, chunk, outcome);
        return ledger.recorded(
                t0,
                c0,
                () -> ledger.inner().recordChunk(lease, key, chunk, outcome),
                r -> switch (r) {
                    case ChunkWrite.Recorded recorded ->
                        base.result("Recorded")
                                .status(recorded.record().status().name())
                                .attempt(recorded.record().attempts());
                    case ChunkWrite.AlreadySucceeded done ->
                        base.result("AlreadySucceeded")
                                .status(done.record().status().name());
                    case ChunkWrite.Fenced fenced -> base.result("Fenced");
                },
                base);
    }

    private Op.Builder chunkOp(Op.Kind kind, Lease lease, RunKey key, String chunk, ChunkOutcome outcome) {
        return ledger.op(kind)
                .occurrence(key.jobId(), key.scheduledTime().toEpochMilli(), lease.group())
                .lease(lease.fence(), lease.ownerToken(), lease.expiresAt().toEpochMilli())
                .chunk(chunk)
                .outcome(outcome instanceof ChunkOutcome.Succeeded ? "SUCCEEDED" : "FAILED");
    }

    @Override
    public Optional<ExecutionRecord> execution(RunKey key) {
        return ledger.inner().execution(key);
    }

    @Override
    public java.util.List<ExecutionRecord> recentExecutions(String ledgerId, int limit) {
        return ledger.inner().recentExecutions(ledgerId, limit);
    }

    @Override
    public Optional<ChunkRecord> chunk(RunKey key, String chunk) {
        return ledger.inner().chunk(key, chunk);
    }

    @Override
    public List<ChunkRecord> chunks(RunKey key) {
        return ledger.inner().chunks(key);
    }
}
