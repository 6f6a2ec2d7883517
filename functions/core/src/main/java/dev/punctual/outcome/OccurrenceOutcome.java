package dev.punctual.outcome;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What happened to one occurrence of one job in one invocation: the content of the outcome log line.
 * Build one with {@link #of} and the builder's named setters; what is not set is zero or absent.
 *
 * @param occurrenceLocal the occurrence in the job's zone, as the schedule reads it
 * @param reason why it ended so; it carries the verdict ({@link #verdict()})
 * @param fence the fence number of the lease it ran under, or null when no lease was taken
 * @param latenessMs how long after its scheduled time the occurrence started
 * @param catchUpCount how many earlier occurrences this invocation replayed before or with this one
 * @param missedCount how many occurrences the catch-up plan gave up as missed
 * @param result the job's result summary as a JSON object, on a pass; empty otherwise (redacted when written)
 * @param error a failure's summary, or null (redacted when written)
 * @param detail a skip's explanation (the maintenance reason, the busy group, the schedule a delivered
 *     time is not an occurrence of), or null (redacted when written)
 * @param entity the entity of a per-entity job's occurrence, or null; a field of the line, never a metric
 *     dimension (metrics stay stage-wide whatever the number of entities)
 */
public record OccurrenceOutcome(
        String stage,
        String job,
        Instant occurrence,
        ZonedDateTime occurrenceLocal,
        String trigger,
        Reason reason,
        int attempt,
        Long fence,
        long latenessMs,
        long durationMs,
        int catchUpCount,
        long missedCount,
        Map<String, Object> result,
        String error,
        String detail,
        String entity) {

    public OccurrenceOutcome {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(occurrence, "occurrence");
        Objects.requireNonNull(occurrenceLocal, "occurrenceLocal");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(reason, "reason");
        // A copy that keeps the caller's key order, so the line shows the result as the runtime ordered it.
        result = result == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(result));
    }

    public Verdict verdict() {
        return reason.verdict();
    }

    /** The trigger of a scheduler's delivery ({@code dev.punctual.ledger.Trigger.SCHEDULED}). */
    static final String SCHEDULED = "SCHEDULED";

    /** An occurrence that delivery caught up ({@code Trigger.CATCH_UP}): retried as the delivery's own is. */
    static final String CATCH_UP = "CATCH_UP";

    /**
     * A failure no retry will follow, which is what pages. Only a scheduled delivery is retried (by
     * Lambda's async retries: the handler throws while the occurrence has attempts left), and only for a
     * reason that is {@link Reason#retried() retried}; so a failure is final when its reason is not
     * retried ({@code ATTEMPTS_EXHAUSTED}: a delivery found the attempts used up, say after a last attempt
     * that timed out, or a duplicate of one that failed finally), when it was a manual run or a replay
     * (no retry comes), or when it was the occurrence's last attempt ({@code attempt >= maxAttempts}).
     *
     * @param maxAttempts the job's {@code maxAttempts}
     */
    public boolean finalFailure(int maxAttempts) {
        return verdict() == Verdict.FAIL
                && !Retries.willRetry(
                        reason, SCHEDULED.equals(trigger) || CATCH_UP.equals(trigger), attempt, maxAttempts);
    }

    /** The identifying part of an outcome; the rest through the builder's setters. */
    public static Builder of(
            String stage,
            String job,
            Instant occurrence,
            ZonedDateTime occurrenceLocal,
            String trigger,
            Reason reason) {
        return new Builder(stage, job, occurrence, occurrenceLocal, trigger, reason);
    }

    /** A builder holding this outcome's values, to change some of them. */
    public Builder toBuilder() {
        return of(stage, job, occurrence, occurrenceLocal, trigger, reason)
                .attempt(attempt)
                .fence(fence)
                .latenessMs(latenessMs)
                .durationMs(durationMs)
                .catchUpCount(catchUpCount)
                .missedCount(missedCount)
                .result(result)
                .error(error)
                .detail(detail)
                .entity(entity);
    }

    public static final class Builder {
        private final String stage;
        private final String job;
        private final Instant occurrence;
        private final ZonedDateTime occurrenceLocal;
        private final String trigger;
        private final Reason reason;
        private int attempt;
        private Long fence;
        private long latenessMs;
        private long durationMs;
        private int catchUpCount;
        private long missedCount;
        private Map<String, Object> result = Map.of();
        private String error;
        private String detail;
        private String entity;

        private Builder(
                String stage,
                String job,
                Instant occurrence,
                ZonedDateTime occurrenceLocal,
                String trigger,
                Reason reason) {
            this.stage = stage;
            this.job = job;
            this.occurrence = occurrence;
            this.occurrenceLocal = occurrenceLocal;
            this.trigger = trigger;
            this.reason = reason;
        }

        public Builder attempt(int value) {
            this.attempt = value;
            return this;
        }

        public Builder fence(Long value) {
            this.fence = value;
            return this;
        }

        public Builder latenessMs(long value) {
            this.latenessMs = value;
            return this;
        }

        public Builder durationMs(long value) {
            this.durationMs = value;
            return this;
        }

        public Builder catchUpCount(int value) {
            this.catchUpCount = value;
            return this;
        }

        public Builder missedCount(long value) {
            this.missedCount = value;
            return this;
        }

        public Builder result(Map<String, Object> value) {
            this.result = value;
            return this;
        }

        public Builder error(String value) {
            this.error = value;
            return this;
        }

        public Builder detail(String value) {
            this.detail = value;
            return this;
        }

        public Builder entity(String value) {
            this.entity = value;
            return this;
        }

        public OccurrenceOutcome build() {
            return new OccurrenceOutcome(
                    stage,
                    job,
                    occurrence,
                    occurrenceLocal,
                    trigger,
                    reason,
                    attempt,
                    fence,
                    latenessMs,
                    durationMs,
                    catchUpCount,
                    missedCount,
                    result,
                    error,
                    detail,
                    entity);
        }
    }
}
