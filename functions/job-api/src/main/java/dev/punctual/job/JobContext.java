package dev.punctual.job;

import dev.punctual.ledger.Trigger;
import dev.punctual.observability.StructuredLog;
import dev.punctual.stage.StageFlags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Map;

/**
 * What a job gets for one occurrence.
 *
 * @param jobId the job's id
 * @param occurrence the scheduled time in UTC: the idempotency key of this run, never "now"
 * @param localOccurrence the same instant in the job's zone, as its schedule reads it
 * @param trigger scheduled, manual or replay
 * @param fence grows with every lease of the job's lock group: store it with your writes and refuse a
 *     write whose fence is lower than the stored one, and a stale runner cannot overwrite a newer one
 * @param deadline when the lease ends; finish (or stop) before it
 * @param flags the stage's safety switches
 * @param log a structured logger whose lines carry the job and occurrence
 * @param delivery the external-delivery port (suppressed outside prod)
 * @param clock the runtime's clock, for any "now" the job needs
 */
public record JobContext(
        String jobId,
        Instant occurrence,
        ZonedDateTime localOccurrence,
        Trigger trigger,
        long fence,
        Instant deadline,
        StageFlags flags,
        JobLog log,
        Delivery delivery,
        Clock clock) {

    /** Time left before the lease ends. */
    public Duration remaining() {
        Duration left = Duration.between(clock.instant(), deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** A structured logger bound to one job occurrence. */
    public record JobLog(StructuredLog log, String jobId, Instant occurrence) {
        public void info(String message, Map<String, ?> fields) {
            log.info(message, with(fields));
        }

        public void warn(String message, Map<String, ?> fields) {
            log.warn(message, with(fields));
        }

        private Map<String, Object> with(Map<String, ?> fields) {
            Map<String, Object> all = new java.util.LinkedHashMap<>();
            all.put("job", jobId);
            all.put("occurrence", occurrence.toString());
            all.putAll(fields);
            return all;
        }
    }
}
