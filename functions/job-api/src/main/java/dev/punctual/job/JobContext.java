package dev.punctual.job;

import dev.punctual.ledger.Trigger;
import dev.punctual.observability.StructuredLog;
import dev.punctual.stage.StageFlags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
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
 * @param lease the group's lease: {@link #deadline()} to finish by, {@link JobLease#extend} for more time
 * @param flags the stage's safety switches
 * @param log a structured logger whose lines carry the job and occurrence
 * @param delivery the external-delivery port (suppressed outside prod)
 * @param clock the runtime's clock, for any "now" the job needs
 * @param entity for a job that runs per entity, the entity this occurrence is for and its parameters;
 *     empty for a job with one schedule
 */
public record JobContext(
        String jobId,
        Instant occurrence,
        ZonedDateTime localOccurrence,
        Trigger trigger,
        long fence,
        JobLease lease,
        StageFlags flags,
        JobLog log,
        Delivery delivery,
        Clock clock,
        java.util.Optional<Entity> entity) {

    public JobContext {
        entity = entity == null ? java.util.Optional.empty() : entity;
    }

    /** The context of a job with one schedule (no entity). */
    public JobContext(
            String jobId,
            Instant occurrence,
            ZonedDateTime localOccurrence,
            Trigger trigger,
            long fence,
            JobLease lease,
            StageFlags flags,
            JobLog log,
            Delivery delivery,
            Clock clock) {
        this(
                jobId,
                occurrence,
                localOccurrence,
                trigger,
                fence,
                lease,
                flags,
                log,
                delivery,
                clock,
                java.util.Optional.empty());
    }

    /**
     * The entity an occurrence of a per-entity job runs for.
     *
     * @param id the entity's id, as its schedule was put
     * @param parameters its parameters: only the keys the job declared, validated when the schedule was put
     *     and again when its delivery was read
     */
    public record Entity(String id, Map<String, Object> parameters) {
        public Entity {
            java.util.Objects.requireNonNull(id, "id");
            parameters = parameters == null
                    ? Map.of()
                    : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        }

        /** A parameter as text, or empty when the entity's schedule did not set it. */
        public java.util.Optional<String> parameter(String key) {
            return java.util.Optional.ofNullable(parameters.get(key)).map(String::valueOf);
        }
    }

    /** When the job must be done (moves out when the runtime renews the lease or {@link #extendLease} succeeds). */
    public Instant deadline() {
        return lease.deadline();
    }

    /** Time left before the deadline, on the runtime's clock. */
    public Duration remaining() {
        Duration left = Duration.between(clock.instant(), deadline());
        return left.isNegative() ? Duration.ZERO : left;
    }

    /**
     * Whether the job should stop now: its deadline has come (on the runtime's clock) or its lease was
     * taken over. A long job polls this between units of work; work done after it turns true may be
     * overtaken by another runner, and its completion is refused (FENCED) once the lease is gone. Polling
     * is also the heartbeat: under a lease shorter than the invocation, the runtime renews it here once
     * less than half of its term is left, so a job that polls keeps its group and a stuck one does not.
     */
    public boolean shouldStop() {
        Instant until = deadline(); // first: reading it may renew the lease, or find it lost
        return lease.lost() || !clock.instant().isBefore(until);
    }

    /**
     * Heartbeat: asks for the lease to last {@code more} from now (see {@link JobLease#extend}). A long
     * job calls it before its deadline; false means the lease is lost and the job must stop.
     */
    public boolean extendLease(Duration more) {
        return lease.extend(more);
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
            Map<String, Object> all = new LinkedHashMap<>();
            all.put("job", jobId);
            all.put("occurrence", occurrence.toString());
            all.putAll(fields);
            return all;
        }
    }
}
