package dev.punctual.runtime;

import dev.punctual.job.JobDefinition;
import dev.punctual.job.LongRun;
import dev.punctual.json.Json;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LongRunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.longrun.LongRunNames;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Hands a claimed long occurrence to its execution (decision 0039, 2): the lease is extended to the
 * execution's bound, the execution is noted beside the run item, then started under a name derived from
 * the claim. Every start of one claim sends the same name, so a resend (a retry, the watchdog's recovery)
 * never starts a second execution; an existing one is read back.
 */
final class LongStart {

    /** How a hand-off ended. */
    sealed interface Handed {
        /** Started now, or found running under the claim's name (a resend). */
        record Started(String name, String arn) implements Handed {}

        /** The claim's lease was no longer ours before the start: nothing was started. */
        record LeaseLost(String detail) implements Handed {}

        /** An execution of the claim's name had already closed: its status is for the caller to record. */
        record Closed(LongExecutions.Execution execution) implements Handed {}
    }

    private final RuntimeServices services;

    LongStart(RuntimeServices services) {
        this.services = services;
    }

    Handed start(RunSubject subject, Claim claim) {
        JobDefinition job = subject.job();
        Instant now = services.clock().instant();
        Instant bound = now.plus(job.longRun().maxDuration()).plus(LongRun.LEASE_SLACK);
        Optional<Lease> extended = services.ledger().extend(claim.lease(), bound);
        if (extended.isEmpty()) {
            return new Handed.LeaseLost("the lease (fence " + claim.fence() + ") was no longer ours when it was to be"
                    + " extended for the execution; nothing was started");
        }
        Claim held = withLease(claim, extended.get());
        String name = LongRunNames.execution(
                services.flags().stage(),
                job.id(),
                claim.key().scheduledTime(),
                subject.entity().map(e -> e.id()),
                claim.fence(),
                claim.lease().ownerToken());
        String input = input(subject, held);
        LongExecutions executions = services.executions();
        // Noted before the start, so the watchdog's sweep finds a claim whose starter died before its start.
        ExecutionRecord record = new ExecutionRecord(
                claim.key(),
                name,
                executions.arnOf(job.id(), name),
                claim.fence(),
                now,
                ExecutionRecord.NOT_PLANNED,
                job.retention().expiryOf(RunStatus.SUCCEEDED, now));
        if (longRuns().noteExecution(held.lease(), record) == LongRunLedger.Noted.FENCED) {
            return new Handed.LeaseLost("the lease (fence " + claim.fence() + ") was no longer ours when the execution"
                    + " was to be noted; nothing was started");
        }
        return switch (executions.start(job.id(), name, input)) {
            case LongExecutions.Start.Started started -> new Handed.Started(name, started.arn());
            case LongExecutions.Start.AlreadyExists exists -> readBack(job, name, exists.arn());
        };
    }

    /** The execution input of a claim: {@code {"claim": {...}}}, a pure function of it. */
    static String input(RunSubject subject, Claim claim) {
        return Json.write(Map.of("claim", new LongClaim(subject, claim).toJson()));
    }

    /**
     * An execution of the claim's name exists: running, it is this claim's (the name holds the fence) and
     * goes on; closed, its status is recorded by the caller. Never a second start, never a failure to start.
     */
    private Handed readBack(JobDefinition job, String name, String arn) {
        Optional<LongExecutions.Execution> found = services.executions().describe(job.id(), name);
        if (found.isEmpty()) {
            // Answered "exists" yet not found: the engine is inconsistent for a moment; the claim stays held and
            // the sweep or the next delivery's recovery starts it again under the same name.
            return new Handed.Started(name, arn);
        }
        LongExecutions.Execution execution = found.get();
        return execution.status().closed() ? new Handed.Closed(execution) : new Handed.Started(name, execution.arn());
    }

    private LongRunLedger longRuns() {
        return services.ledger().longRuns();
    }

    static Claim withLease(Claim claim, Lease lease) {
        return new Claim(
                claim.key(),
                lease,
                claim.attempt(),
                claim.trigger(),
                claim.schedulerAttempt(),
                claim.startedAt(),
                claim.onSlot(),
                claim.cursorBefore(),
                claim.previous());
    }
}
