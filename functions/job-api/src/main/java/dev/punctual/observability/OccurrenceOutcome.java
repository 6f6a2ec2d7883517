package dev.punctual.observability;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Objects;

/**
 * What happened to one occurrence of one job in one invocation: the content of the outcome log line.
 *
 * @param occurrenceLocal the occurrence in the job's zone, as the schedule reads it
 * @param reason a reason code ({@code OK} for a pass)
 * @param fence the fence number of the lease it ran under, or null when no lease was taken
 * @param latenessMs how long after its scheduled time the occurrence started
 * @param catchUpCount how many earlier occurrences this invocation replayed before or with this one
 * @param missedCount how many occurrences the catch-up plan gave up as missed
 * @param result the job's small result summary (redacted when written)
 * @param error a failure's summary, or null (redacted when written)
 * @param detail a skip's explanation (the maintenance reason, the busy group, the schedule a delivered
 *     time is not an occurrence of), or null (redacted when written)
 */
public record OccurrenceOutcome(
        String stage,
        String job,
        Instant occurrence,
        ZonedDateTime occurrenceLocal,
        String trigger,
        Verdict verdict,
        String reason,
        int attempt,
        Long fence,
        long latenessMs,
        long durationMs,
        int catchUpCount,
        long missedCount,
        Map<String, Object> result,
        String error,
        String detail) {

    public OccurrenceOutcome {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(occurrence, "occurrence");
        Objects.requireNonNull(occurrenceLocal, "occurrenceLocal");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        result = result == null ? Map.of() : Map.copyOf(result);
    }
}
