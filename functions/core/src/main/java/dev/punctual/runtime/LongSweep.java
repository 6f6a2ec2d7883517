package dev.punctual.runtime;

import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.Slot;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.longrun.BadLongClaim;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The watchdog's sweep of running long occurrences (decision 0039, 5), so that nothing is lost when an
 * execution's status event is: for each long job with one schedule, the occurrence its slot shows
 * running, with the execution noted under the same fence, is looked up in the engine. Closed, its status
 * is recorded (as the event would have); never started and noted longer than {@link #START_GRACE} ago
 * (its starter died between the note and the start), it is started under the same name, with the claim
 * as the ledger holds it, so no second execution can result. A running one is left alone.
 *
 * <p>Per-entity long jobs are not swept: their entities' items are not listed here (their ended executions
 * are recorded by the status event and by the entity's next delivery's claim after the bound).
 */
final class LongSweep {

    /** How long a noted execution may take to appear in the engine before the sweep starts it itself. */
    static final Duration START_GRACE = Duration.ofMinutes(5);

    /** What the sweep did about one long occurrence. */
    record Swept(String job, Instant occurrence, String execution, String action) {}

    private final RuntimeServices services;
    private final LongSteps steps;

    LongSweep(RuntimeServices services, LongSteps steps) {
        this.services = services;
        this.steps = steps;
    }

    List<Swept> sweep(StructuredLog log) {
        List<Swept> swept = new ArrayList<>();
        for (JobDefinition job : services.catalog().jobs()) {
            if (!job.isLong() || job.isPerEntity()) {
                continue;
            }
            try {
                sweep(job, log).ifPresent(swept::add);
            } catch (RuntimeException e) {
                // One job's engine or ledger trouble does not stop the sweep of the others, nor the watchdog.
                log.warn("long sweep failed", Map.of("job", job.id(), "error", String.valueOf(e.getMessage())));
            }
        }
        return swept;
    }

    private Optional<Swept> sweep(JobDefinition job, StructuredLog log) {
        LockState own = services.ledger().lock(job.id());
        Slot slot = own.slot();
        if (slot == null || !slot.running()) {
            return Optional.empty();
        }
        RunKey key = new RunKey(job.id(), slot.occurrence());
        Optional<ExecutionRecord> noted = services.ledger().longRuns().execution(key);
        if (noted.isEmpty() || noted.get().fence() != slot.fence()) {
            return Optional.empty(); // claimed, not yet noted: its starter is at work (or its lease will lapse)
        }
        ExecutionRecord record = noted.get();
        Optional<LongExecutions.Execution> execution = services.executions().describe(job.id(), record.name());
        Instant now = services.clock().instant();
        if (execution.isEmpty()) {
            if (Duration.between(record.startedAt(), now).compareTo(START_GRACE) < 0) {
                return Optional.empty();
            }
            LongClaim claim = claimOf(job, key, slot, services.ledger().lock(job.lockGroup()), own);
            services.executions().start(job.id(), record.name(), LongStart.input(claim.subject(), claim.claim()));
            return report(log, job, key, record, "started: its starter had not");
        }
        if (!execution.get().status().closed()) {
            return Optional.empty();
        }
        LongClaim claim = claimOf(execution.get().input());
        LongExecutions.Execution closed = execution.get();
        boolean cancelled = closed.status() == LongExecutions.Status.ABORTED
                && closed.error().filter(LongExecutions.CANCELLED_ERROR::equals).isPresent();
        boolean recorded = cancelled
                ? steps.foldClosed(
                        claim, closed.cause().orElse("CANCELLED"), dev.punctual.outcome.Reason.CANCELLED, log)
                : steps.foldClosed(claim, LongFold.describe(closed), log);
        return recorded
                ? report(log, job, key, record, "recorded " + execution.get().status())
                : Optional.empty();
    }

    private Optional<Swept> report(
            StructuredLog log, JobDefinition job, RunKey key, ExecutionRecord record, String action) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("job", job.id());
        fields.put("occurrence", key.scheduledTime().toString());
        fields.put("execution", record.name());
        fields.put("action", action);
        log.warn("long sweep", fields);
        return Optional.of(new Swept(job.id(), key.scheduledTime(), record.name(), action));
    }

    /** The claim an execution's input carried. */
    private LongClaim claimOf(String input) {
        try {
            Object root = dev.punctual.json.Json.read(input);
            return LongClaim.from(root instanceof Map<?, ?> m ? m.get("claim") : null, services.catalog());
        } catch (dev.punctual.json.Json.NotJsonException e) {
            throw new BadLongClaim("an execution's input is not JSON: " + e.getMessage());
        }
    }

    /** The claim of an occurrence on its job's slot, as the ledger holds it (the lease extended to its bound). */
    private static LongClaim claimOf(JobDefinition job, RunKey key, Slot slot, LockState group, LockState own) {
        Lease lease = new Lease(
                job.lockGroup(), slot.ownerToken(), slot.fence(), group.leaseAcquiredAt(), group.leaseUntil());
        Claim claim = new Claim(
                key,
                lease,
                slot.attempts(),
                slot.trigger(),
                slot.schedulerAttempt(),
                slot.startedAt(),
                true,
                Optional.ofNullable(own.cursor()),
                Optional.empty());
        return new LongClaim(RunSubject.of(job), claim);
    }
}
