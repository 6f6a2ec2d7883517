package dev.punctual.runtime;

import dev.punctual.job.JobPreview;
import dev.punctual.ledger.Trigger;
import dev.punctual.outcome.OccurrenceOutcome;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The outcome of one occurrence within one invocation, as the handler returns it.
 *
 * @param attempt the ledger's attempt number, 0 when nothing was claimed
 * @param fence the lease's fence, or null when no lease was taken
 * @param reason why it ended so; it carries the verdict
 * @param detail a short, redacted explanation (error summary, maintenance reason, a preview's counts), or
 *     null; never JSON: a pass's summary is {@code result}
 * @param result the job's result summary on a pass, redacted and bounded ({@link ResultSummary}); empty
 *     otherwise
 * @param preview on a dry run, what the job would do ({@code Job.preview}); empty when it cannot tell
 *     and on every other run
 * @param entity the entity of a per-entity job's occurrence, or null
 */
public record OccurrenceReport(
        String job,
        Instant occurrence,
        ZonedDateTime local,
        Trigger trigger,
        Reason reason,
        int attempt,
        Long fence,
        long durationMs,
        String detail,
        Map<String, Object> result,
        Optional<JobPreview> preview,
        String entity) {

    public OccurrenceReport {
        preview = preview == null ? Optional.empty() : preview;
        result = result == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(result));
    }

    /** A skip that claimed and recorded nothing: no attempt, no fence, no time spent. */
    static OccurrenceReport notRun(
            String job,
            String entity,
            Instant occurrence,
            ZonedDateTime local,
            Trigger trigger,
            Reason reason,
            String detail) {
        return new OccurrenceReport(
                job, occurrence, local, trigger, reason, 0, null, 0, detail, Map.of(), Optional.empty(), entity);
    }

    OccurrenceReport withResult(Map<String, Object> value) {
        return new OccurrenceReport(
                job, occurrence, local, trigger, reason, attempt, fence, durationMs, detail, value, preview, entity);
    }

    OccurrenceReport withPreview(Optional<JobPreview> value) {
        return new OccurrenceReport(
                job, occurrence, local, trigger, reason, attempt, fence, durationMs, detail, result, value, entity);
    }

    public Verdict verdict() {
        return reason.verdict();
    }

    /**
     * The outcome line of this report: every field it has in common with the report is taken from it
     * here, in one place, so the line and the handler's result cannot say different things.
     *
     * @param catchUp how many older occurrences this invocation ran before the delivered one
     * @param missed how many occurrences its catch-up gave up (the missed range)
     * @param lateness from the occurrence's time to when it started (negative counts as 0)
     */
    public OccurrenceOutcome outcome(String stage, int catchUp, long missed, java.time.Duration lateness) {
        return OccurrenceOutcome.of(stage, job, occurrence, local, trigger.name(), reason)
                .entity(entity)
                .attempt(attempt)
                .fence(fence)
                .latenessMs(Math.max(0, lateness.toMillis()))
                .durationMs(durationMs)
                .catchUpCount(catchUp)
                .missedCount(missed)
                // The job's summary on a pass only (a done occurrence is a skip: nothing ran).
                .result(verdict() == Verdict.PASS ? result : Map.of())
                .error(verdict() == Verdict.FAIL ? detail : null)
                .detail(verdict() == Verdict.SKIP ? detail : null)
                .build();
    }
}
