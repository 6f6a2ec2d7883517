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
 * never will, as a Lambda killed there would leave it.
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
        Op.Builder base = ledger.op(Op.Kind.CHUNK)
                .occurrence(key.jobId(), key.scheduledTime().toEpochMilli(), lease.group())
                .lease(lease.fence(), lease.ownerToken(), lease.expiresAt().toEpochMilli())
                .chunk(chunk)
                .outcome(outcome instanceof ChunkOutcome.Succeeded ? "SUCCEEDED" : "FAILED");
        return ledger.recorded(
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
