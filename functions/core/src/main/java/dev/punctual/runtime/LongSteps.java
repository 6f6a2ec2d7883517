package dev.punctual.runtime;

import dev.punctual.PunctualException;
import dev.punctual.job.Delivery;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobLease;
import dev.punctual.job.JobResult;
import dev.punctual.job.LongJob;
import dev.punctual.job.LongRun;
import dev.punctual.job.SuppressedDelivery;
import dev.punctual.json.Json;
import dev.punctual.ledger.ChunkOutcome;
import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ChunkWrite;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.LongRunLedger;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Summaries;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.OccurrenceOutcome;
import dev.punctual.outcome.Reason;
import dev.punctual.runtime.longrun.BadLongClaim;
import dev.punctual.runtime.longrun.ChunkAttemptFailed;
import dev.punctual.runtime.longrun.OccurrenceEnded;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The steps of a long occurrence's execution (decision 0039, 3): plan, each chunk, finish, and the fold of
 * an execution's status-change event. Each runs under the claim its execution's input carries; each writes
 * only while that claim's lease is still the group's, so a step of an execution whose claim was taken over
 * records nothing. Its answer is the JSON Step Functions passes on; a failed chunk attempt throws {@link
 * ChunkAttemptFailed} (retried by the state machine), an ended occurrence {@link OccurrenceEnded}.
 */
final class LongSteps {

    static final String KIND = "long_step";
    static final String STATUS_CHANGE = "Step Functions Execution Status Change";

    private final RuntimeServices services;
    private final List<OccurrenceListener> listeners;

    LongSteps(RuntimeServices services, List<OccurrenceListener> listeners) {
        this.services = services;
        this.listeners = List.copyOf(listeners);
    }

    /** Whether a payload is a step or a status-change event, read once by the caller. */
    static boolean isStep(Object root) {
        return root instanceof Map<?, ?> map
                && (KIND.equals(map.get("kind")) || STATUS_CHANGE.equals(map.get("detail-type")));
    }

    /** Carries out one step; its answer as JSON. */
    String handle(Map<?, ?> root, Deadline deadline, StructuredLog log) {
        if (STATUS_CHANGE.equals(root.get("detail-type"))) {
            return Json.write(statusChanged(root, log));
        }
        Object stepName = root.get("step");
        LongClaim claim = LongClaim.from(root.get("claim"), services.catalog());
        String execution = root.get("execution") instanceof String s ? s : "";
        Map<String, Object> answer = switch (String.valueOf(stepName)) {
            case "plan" -> plan(claim, deadline, log);
            case "chunk" -> chunk(claim, chunkKey(root), deadline, log);
            case "finish" -> finish(claim, execution, deadline, log);
            default ->
                throw new BadLongClaim(
                        "step '" + stepName + "' is not a step of a long job; expected plan, chunk or finish");
        };
        return Json.write(answer);
    }

    private static String chunkKey(Map<?, ?> root) {
        if (root.get("chunk") instanceof String key && LongRun.acceptedKey(key)) {
            return key;
        }
        throw new BadLongClaim("a chunk step needs field 'chunk', a key the plan listed");
    }

    private Map<String, Object> plan(LongClaim claim, Deadline deadline, StructuredLog log) {
        requireHeld(claim, "plan");
        List<String> keys;
        try {
            keys = job(claim).plan(context(claim, deadline, log));
        } catch (Exception | LinkageError | StackOverflowError e) {
            throw ended(claim, Reason.CHUNK_FAILED, "plan failed: " + Summaries.ofError(e), log);
        }
        Optional<String> refused = refusedPlan(keys);
        if (refused.isPresent()) {
            throw ended(claim, Reason.CHUNK_FAILED, "plan refused: " + refused.get(), log);
        }
        ExecutionRecord noted = longRuns()
                .execution(claim.claim().key())
                .orElseThrow(() -> new OccurrenceEnded(
                        "no execution is noted for " + claim.claim().key()));
        if (longRuns().noteExecution(claim.claim().lease(), noted.withPlanned(keys.size()))
                == LongRunLedger.Noted.FENCED) {
            throw fenced(claim, "plan");
        }
        log.info("long plan", fields(claim, Map.of("chunks", keys.size())));
        return Map.of("chunks", List.copyOf(keys));
    }

    /** Why a plan is refused, naming the bound it passes; empty when accepted. */
    static Optional<String> refusedPlan(List<String> keys) {
        if (keys == null) {
            return Optional.of("the plan returned null; expected a list of chunk keys");
        }
        if (keys.size() > LongRun.MAX_CHUNKS) {
            return Optional.of(keys.size() + " chunks; at most " + LongRun.MAX_CHUNKS
                    + " (an execution's history holds 25,000 events): plan larger chunks, e.g. row ranges");
        }
        Set<String> seen = new HashSet<>();
        for (String key : keys) {
            if (!LongRun.acceptedKey(key)) {
                return Optional.of("chunk key '" + Summaries.sanitise(String.valueOf(key)) + "' is not accepted;"
                        + " expected 1-" + LongRun.MAX_KEY_CHARS + " letters, digits or . _ : = + @ -");
            }
            if (!seen.add(key)) {
                return Optional.of("chunk key '" + key + "' is listed twice; each chunk runs once");
            }
        }
        return Optional.empty();
    }

    private Map<String, Object> chunk(LongClaim claim, String key, Deadline deadline, StructuredLog log) {
        Optional<ChunkRecord> before = longRuns().chunk(claim.claim().key(), key);
        if (before.filter(ChunkRecord::succeeded).isPresent()) {
            // A redelivered chunk (a retry after a lost answer, a resumed occurrence): recorded once, not run again.
            return chunkAnswer(key, "SUCCEEDED", true);
        }
        requireHeld(claim, "chunk " + key);
        ChunkOutcome outcome;
        JobContext context = context(claim, deadline, log);
        try {
            JobResult result = job(claim).chunk(context, key);
            Map<String, Object> summary = ResultSummary.of(log.redactor(), result.summary());
            outcome = new ChunkOutcome.Succeeded(
                    summary.isEmpty() ? null : log.redactor().text(Json.write(summary)));
        } catch (Exception | LinkageError | StackOverflowError e) {
            outcome = new ChunkOutcome.Failed(log.redactor().text(Summaries.ofError(e)));
        }
        ChunkWrite write =
                longRuns().recordChunk(claim.claim().lease(), claim.claim().key(), key, outcome);
        return switch (write) {
            case ChunkWrite.Fenced f -> throw fenced(claim, "chunk " + key);
            case ChunkWrite.AlreadySucceeded done -> chunkAnswer(key, "SUCCEEDED", true);
            case ChunkWrite.Recorded recorded
            when recorded.record().succeeded() -> {
                log.info(
                        "long chunk",
                        fields(
                                claim,
                                Map.of(
                                        "chunk",
                                        key,
                                        "status",
                                        "SUCCEEDED",
                                        "attempt",
                                        recorded.record().attempts())));
                yield chunkAnswer(key, "SUCCEEDED", false);
            }
            case ChunkWrite.Recorded recorded -> {
                ChunkRecord failed = recorded.record();
                log.warn(
                        "long chunk",
                        fields(
                                claim,
                                Map.of(
                                        "chunk",
                                        key,
                                        "status",
                                        "FAILED",
                                        "attempt",
                                        failed.attempts(),
                                        "error",
                                        String.valueOf(failed.error()))));
                if (failed.attempts() >= claim.subject().job().maxAttempts()) {
                    throw ended(
                            claim,
                            Reason.CHUNK_FAILED,
                            "chunk " + key + " failed after " + failed.attempts()
                                    + (failed.attempts() == 1 ? " attempt: " : " attempts: ") + failed.error(),
                            log);
                }
                throw new ChunkAttemptFailed("chunk " + key + " attempt " + failed.attempts() + " of "
                        + claim.subject().job().maxAttempts() + " failed: " + failed.error());
            }
        };
    }

    private static Map<String, Object> chunkAnswer(String key, String status, boolean before) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("chunk", key);
        answer.put("status", status);
        answer.put("recorded_before", before);
        return answer;
    }

    private Map<String, Object> finish(LongClaim claim, String execution, Deadline deadline, StructuredLog log) {
        requireHeld(claim, "finish");
        ExecutionRecord noted = longRuns()
                .execution(claim.claim().key())
                .orElseThrow(() -> new OccurrenceEnded(
                        "no execution is noted for " + claim.claim().key()));
        List<ChunkRecord> chunks = longRuns().chunks(claim.claim().key());
        int succeeded = (int) chunks.stream().filter(ChunkRecord::succeeded).count();
        if (!noted.isPlanned() || succeeded < noted.planned()) {
            throw ended(
                    claim,
                    Reason.CHUNK_FAILED,
                    "finish found " + succeeded + " of " + Math.max(0, noted.planned())
                            + " planned chunks recorded as succeeded",
                    log);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        try {
            JobResult result = job(claim)
                    .finish(context(claim, deadline, log), new LongJob.ChunkTally(noted.planned(), succeeded));
            summary.putAll(ResultSummary.of(log.redactor(), result.summary()));
        } catch (Exception | LinkageError | StackOverflowError e) {
            throw ended(claim, Reason.CHUNK_FAILED, "finish failed: " + Summaries.ofError(e), log);
        }
        summary.put("chunks", noted.planned());
        summary.put("execution", noted.name());
        CompletionResult completion =
                complete(claim, new Outcome.Succeeded(log.redactor().text(Json.write(summary))));
        if (completion instanceof CompletionResult.Fenced) {
            report(
                    claim,
                    Reason.FENCED,
                    "lease lost before the finish's completion (fence "
                            + claim.claim().fence() + ")",
                    log,
                    Map.of());
            throw fenced(claim, "finish");
        }
        report(claim, Reason.OK, null, log, summary);
        return Map.of("status", "SUCCEEDED", "chunks", noted.planned(), "execution", execution);
    }

    /**
     * An execution's status changed to FAILED, TIMED_OUT or ABORTED: the occurrence is recorded from it,
     * only while its run is still RUNNING under the execution's claim (a chunk's last failure, a cancel or
     * a finish may have recorded it first).
     */
    private Map<String, Object> statusChanged(Map<?, ?> root, StructuredLog log) {
        Map<?, ?> detail = root.get("detail") instanceof Map<?, ?> d ? d : Map.of();
        String status = String.valueOf(detail.get("status"));
        String name = String.valueOf(detail.get("name"));
        Object input;
        try {
            input = Json.read(String.valueOf(detail.get("input")));
        } catch (Json.NotJsonException e) {
            throw new BadLongClaim("the status event's input is not JSON: " + e.getMessage());
        }
        Object claimJson = input instanceof Map<?, ?> m ? m.get("claim") : null;
        LongClaim claim = LongClaim.from(claimJson, services.catalog());
        if (!List.of("FAILED", "TIMED_OUT", "ABORTED").contains(status)) {
            return Map.of("recorded", false, "why", "status " + status + " is not recorded from an event");
        }
        String error = detail.get("error") instanceof String e ? e : null;
        String cause = detail.get("cause") instanceof String c ? c : null;
        boolean cancelled = "ABORTED".equals(status) && LongExecutions.CANCELLED_ERROR.equals(error);
        // A stop by punctual cancel is recorded as the cancel said (who and why, redacted there), never paged.
        String why = cancelled
                ? Summaries.sanitise(cause == null || cause.isBlank() ? "CANCELLED" : cause)
                : LongFold.describe(name, status, error, cause);
        boolean recorded = foldClosed(claim, why, cancelled ? Reason.CANCELLED : Reason.EXECUTION_FAILED, log);
        return Map.of("recorded", recorded, "why", recorded ? why : "the occurrence was recorded before");
    }

    /** Records a closed execution's failure while the claim's run is still RUNNING; false when it was not. */
    boolean foldClosed(LongClaim claim, String why, StructuredLog log) {
        return foldClosed(claim, why, Reason.EXECUTION_FAILED, log);
    }

    /** As {@link #foldClosed(LongClaim, String, StructuredLog)}, reported under {@code reason}. */
    boolean foldClosed(LongClaim claim, String why, Reason reason, StructuredLog log) {
        Optional<RunRecord> run = services.ledger().run(claim.claim().key());
        boolean ours = run.filter(r -> r.status() == RunStatus.RUNNING)
                .filter(r -> claim.claim().lease().ownerToken().equals(r.ownerToken()))
                .isPresent();
        if (!ours) {
            return false;
        }
        CompletionResult completion = complete(claim, new Outcome.Failed(why));
        if (completion instanceof CompletionResult.Fenced) {
            return false;
        }
        report(claim, reason, why, log, Map.of());
        return true;
    }

    /** The occurrence recorded as failed now, and the exception that ends the execution. */
    private OccurrenceEnded ended(LongClaim claim, Reason reason, String why, StructuredLog log) {
        CompletionResult completion = complete(claim, new Outcome.Failed(why));
        if (completion instanceof CompletionResult.Fenced) {
            return fenced(claim, "its last failure");
        }
        report(claim, reason, why, log, Map.of());
        return new OccurrenceEnded(why);
    }

    private OccurrenceEnded fenced(LongClaim claim, String what) {
        return new OccurrenceEnded("the lease of fence " + claim.claim().fence() + " is no longer the claim's at "
                + what + " (a newer claim, or the occurrence ended): nothing recorded");
    }

    /** The claim's lease is still the group's; else nothing is run or recorded. */
    private void requireHeld(LongClaim claim, String what) {
        Claim c = claim.claim();
        LockState lock = services.ledger().lock(c.lease().group());
        Instant now = services.clock().instant();
        if (!c.lease().ownerToken().equals(lock.leaseOwner()) || lock.fence() != c.fence() || !lock.leaseHeldAt(now)) {
            throw fenced(claim, what);
        }
    }

    private CompletionResult complete(LongClaim claim, Outcome outcome) {
        if (claim.subject().entity().isEmpty()) {
            return services.ledger().complete(claim.claim(), outcome);
        }
        Optional<Instant> next =
                claim.subject().occurrences().next(claim.claim().key().scheduledTime());
        return services.ledger().complete(claim.claim(), outcome, new NextDue(next));
    }

    private void report(LongClaim claim, Reason reason, String detail, StructuredLog log, Map<String, Object> result) {
        Claim c = claim.claim();
        Instant now = services.clock().instant();
        OccurrenceReport report = new OccurrenceReport(
                claim.subject().job().id(),
                c.key().scheduledTime(),
                c.key().scheduledTime().atZone(claim.subject().schedule().zone()),
                c.trigger(),
                reason,
                c.attempt(),
                c.fence(),
                Duration.between(c.startedAt(), now).toMillis(),
                detail,
                result,
                Optional.empty(),
                claim.subject().entityId());
        OccurrenceOutcome outcome = report.outcome(
                services.flags().stage(), 0, 0, Duration.between(c.key().scheduledTime(), now));
        listeners.forEach(listener -> listener.ended(claim.subject().job(), outcome, log));
    }

    private JobContext context(LongClaim claim, Deadline deadline, StructuredLog log) {
        Claim c = claim.claim();
        JobDefinition job = claim.subject().job();
        Delivery delivery = services.flags().externalDeliveryEnabled()
                ? services.delivery()
                : new SuppressedDelivery(services.flags().stage(), log);
        Instant until = deadline.workUntil().isBefore(c.lease().expiresAt())
                ? deadline.workUntil()
                : c.lease().expiresAt();
        return new JobContext(
                job.id(),
                c.key().scheduledTime(),
                c.key().scheduledTime().atZone(claim.subject().schedule().zone()),
                c.trigger(),
                c.fence(),
                JobLease.until(until),
                services.flags(),
                new JobContext.JobLog(log, job.id(), c.key().scheduledTime()),
                delivery,
                services.clock(),
                claim.subject().entity());
    }

    private LongJob job(LongClaim claim) {
        Object built = claim.subject().job().factory().apply(services.jobServices());
        if (built instanceof LongJob longJob) {
            return longJob;
        }
        throw new PunctualException("job " + claim.subject().job().id() + " declares runsLong but its factory built a "
                + built.getClass().getName() + ", not a LongJob");
    }

    private LongRunLedger longRuns() {
        return services.ledger().longRuns();
    }

    private static Map<String, Object> fields(LongClaim claim, Map<String, ?> more) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("job", claim.subject().job().id());
        all.put("entity", claim.subject().entityId());
        all.put("occurrence", claim.claim().key().scheduledTime().toString());
        all.put("fence", claim.claim().fence());
        all.putAll(more);
        return all;
    }
}
