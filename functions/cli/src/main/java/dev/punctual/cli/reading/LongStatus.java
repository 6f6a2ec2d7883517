package dev.punctual.cli.reading;

import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.LongRunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code status} shows of a long job's occurrence (decision 0039): its execution (name, ARN, fence,
 * start), its chunks (done, failed, planned; planned unknown until the plan ran) and, while it runs, until
 * when its claim's lease holds the group. One read of the execution and one query of the chunks, for the
 * one occurrence the row shows: the cost stays bounded whatever the job's history.
 */
final class LongStatus {

    private LongStatus() {}

    /** How many of the newest executions {@link #running} looks through. */
    static final int NEWEST = 3;

    /**
     * The run of a long occurrence still RUNNING among the subject's {@value #NEWEST} newest executions,
     * under the claim that noted it; empty when none is.
     */
    static Optional<RunRecord> running(dev.punctual.ledger.RunLedger ledger, String ledgerId) {
        for (ExecutionRecord execution : ledger.longRuns().recentExecutions(ledgerId, NEWEST)) {
            Optional<RunRecord> run = ledger.run(execution.key())
                    .filter(r -> r.status() == RunStatus.RUNNING && r.fence() == execution.fence());
            if (run.isPresent()) {
                return run;
            }
        }
        return Optional.empty();
    }

    /** The occurrence's long-run fields; null when no execution is noted for it (none started yet). */
    static Map<String, Object> of(LongRunLedger longRuns, RunRecord run, LockState group, Instant now) {
        Optional<ExecutionRecord> noted = longRuns.execution(run.key());
        if (noted.isEmpty()) {
            return null;
        }
        ExecutionRecord execution = noted.get();
        List<ChunkRecord> chunks = longRuns.chunks(run.key());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("occurrence", run.key().scheduledTime().toString());
        m.put("execution", execution.name());
        m.put("arn", execution.arn());
        m.put("fence", execution.fence());
        m.put("started_at", execution.startedAt().toString());
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("done", chunks.stream().filter(ChunkRecord::succeeded).count());
        counts.put("failed", chunks.stream().filter(c -> !c.succeeded()).count());
        counts.put("planned", execution.isPlanned() ? execution.planned() : null);
        m.put("chunks", counts);
        boolean running = run.status() == RunStatus.RUNNING;
        boolean held = running && group.leaseHeldAt(now) && group.leaseOwner().equals(run.ownerToken());
        m.put("lease_until", held ? group.leaseUntil().toString() : null);
        return m;
    }

    /** One line for under the table: {@code JOB at T: execution NAME (ARN) since S, chunks 2/3 done, ...}. */
    @SuppressWarnings("unchecked")
    static String line(String id, Map<String, Object> shown) {
        Map<String, Object> chunks = (Map<String, Object>) shown.get("chunks");
        Object planned = chunks.get("planned");
        return id + " at " + shown.get("occurrence") + ": execution " + shown.get("execution") + " ("
                + shown.get("arn") + ") started " + shown.get("started_at") + ", chunks " + chunks.get("done") + "/"
                + (planned == null ? "? (not planned yet)" : planned) + " done, " + chunks.get("failed") + " failed"
                + (shown.get("lease_until") == null ? "" : ", lease until " + shown.get("lease_until"));
    }
}
