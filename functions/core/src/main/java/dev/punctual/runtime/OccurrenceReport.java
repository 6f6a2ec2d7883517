package dev.punctual.runtime;

import dev.punctual.ledger.Trigger;
import dev.punctual.observability.Reason;
import dev.punctual.observability.Verdict;
import java.time.Instant;
import java.time.ZonedDateTime;

/**
 * The outcome of one occurrence within one invocation, as the handler returns it.
 *
 * @param attempt the ledger's attempt number, 0 when nothing was claimed
 * @param fence the lease's fence, or null when no lease was taken
 * @param reason why it ended so; it carries the verdict
 * @param detail a short, redacted explanation (error summary, maintenance reason), or null
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
        String detail) {

    /** A skip that claimed and recorded nothing: no attempt, no fence, no time spent. */
    static OccurrenceReport notRun(
            String job, Instant occurrence, ZonedDateTime local, Trigger trigger, Reason reason, String detail) {
        return new OccurrenceReport(job, occurrence, local, trigger, reason, 0, null, 0, detail);
    }

    public Verdict verdict() {
        return reason.verdict();
    }
}
