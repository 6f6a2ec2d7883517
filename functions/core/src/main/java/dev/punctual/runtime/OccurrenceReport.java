package dev.punctual.runtime;

import dev.punctual.job.JobPreview;
import dev.punctual.ledger.Trigger;
import dev.punctual.observability.Reason;
import dev.punctual.observability.Verdict;
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
 * @param detail a short, redacted explanation (error summary, maintenance reason, a pass's stored result
 *     summary), or null
 * @param result the job's result summary on a pass, redacted and bounded ({@link ResultSummary}); empty
 *     otherwise
 * @param preview on a dry run, what the job would do ({@code Job.preview}); empty when it cannot tell
 *     and on every other run
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
        Optional<JobPreview> preview) {

    public OccurrenceReport {
        preview = preview == null ? Optional.empty() : preview;
        result = result == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(result));
    }

    /** A skip that claimed and recorded nothing: no attempt, no fence, no time spent. */
    static OccurrenceReport notRun(
            String job, Instant occurrence, ZonedDateTime local, Trigger trigger, Reason reason, String detail) {
        return new OccurrenceReport(
                job, occurrence, local, trigger, reason, 0, null, 0, detail, Map.of(), Optional.empty());
    }

    OccurrenceReport withResult(Map<String, Object> value) {
        return new OccurrenceReport(
                job, occurrence, local, trigger, reason, attempt, fence, durationMs, detail, value, preview);
    }

    OccurrenceReport withPreview(Optional<JobPreview> value) {
        return new OccurrenceReport(
                job, occurrence, local, trigger, reason, attempt, fence, durationMs, detail, result, value);
    }

    public Verdict verdict() {
        return reason.verdict();
    }
}
