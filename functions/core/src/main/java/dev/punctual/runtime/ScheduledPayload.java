package dev.punctual.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The payload of a scheduled delivery: the one contract between the CDK app, which writes it into each
 * schedule's target input, and {@link PayloadParser}, which reads it. EventBridge Scheduler replaces
 * each {@code <aws.scheduler.*>} placeholder with the delivery's value, always as text. Field names are
 * snake_case, as in everything Punctual prints; the camelCase names they replaced are read for one more
 * release ({@link RenamedFields}).
 */
public final class ScheduledPayload {

    public static final String KIND = "kind";
    public static final String KIND_SCHEDULED = "scheduled";
    public static final String JOB = "job";
    public static final String SCHEDULED_TIME = "scheduled_time";
    public static final String EXECUTION_ID = "execution_id";
    public static final String ATTEMPT_NUMBER = "attempt_number";
    public static final String SCHEDULE_ARN = "schedule_arn";

    /** The fields an entity's delivery adds (docs/entities.md): who it is for, and its own schedule. */
    public static final String ENTITY = "entity";

    public static final String SCHEDULE = "schedule";
    public static final String ZONE = "zone";
    public static final String PARAMETERS = "parameters";

    /**
     * Minutes between the entity's nominal occurrence and the firing that delivers it, when its job
     * spreads its entities (decision 0030): the function runs the scheduled time minus this. Absent is 0.
     */
    public static final String OFFSET_MINUTES = "offset_minutes";

    /** The fields of operator payloads ({@code run}, {@code replay}), documented in events/README.md. */
    public static final String AT = "at";

    public static final String FORCE = "force";
    public static final String DRY_RUN = "dry_run";
    public static final String FROM = "from";
    public static final String TO = "to";
    public static final String MAX = "max";

    /** The nominal time of the occurrence, e.g. {@code 2026-03-22T18:59:00Z}: the run's key. */
    public static final String SCHEDULED_TIME_ATTRIBUTE = "<aws.scheduler.scheduled-time>";

    /** New for every attempt, so never an idempotency key; logged for tracing only. */
    public static final String EXECUTION_ID_ATTRIBUTE = "<aws.scheduler.execution-id>";

    public static final String ATTEMPT_NUMBER_ATTRIBUTE = "<aws.scheduler.attempt-number>";
    public static final String SCHEDULE_ARN_ATTRIBUTE = "<aws.scheduler.schedule-arn>";

    private ScheduledPayload() {}

    /**
     * The target input of an entity's schedule: the job's fields, then the entity, its own expression and
     * zone (the function reads the occurrence's rules from its delivery, with no lookup per delivery), its
     * parameters when it has any, and its spread offset when it has one.
     */
    public static Map<String, Object> forEntity(dev.punctual.entity.EntitySchedule schedule) {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put(KIND, KIND_SCHEDULED);
        input.put(JOB, schedule.job());
        input.put(ENTITY, schedule.entity());
        input.put(SCHEDULE, schedule.schedule().expression().source());
        input.put(ZONE, schedule.schedule().zone().getId());
        if (!schedule.parameters().isEmpty()) {
            input.put(PARAMETERS, schedule.parameters());
        }
        if (schedule.offsetMinutes() != 0) {
            input.put(OFFSET_MINUTES, schedule.offsetMinutes());
        }
        input.put(SCHEDULED_TIME, SCHEDULED_TIME_ATTRIBUTE);
        input.put(EXECUTION_ID, EXECUTION_ID_ATTRIBUTE);
        input.put(ATTEMPT_NUMBER, ATTEMPT_NUMBER_ATTRIBUTE);
        input.put(SCHEDULE_ARN, SCHEDULE_ARN_ATTRIBUTE);
        return input;
    }

    /** The target input of a job's schedule, field by field in a stable order. */
    public static Map<String, Object> forJob(String jobId) {
        return forJob(jobId, 0);
    }

    /**
     * The target input of a job's schedule deployed {@code offsetMinutes} after its occurrences (a spread
     * job, decision 0035): the offset is carried so the function runs the occurrence, not the firing.
     */
    public static Map<String, Object> forJob(String jobId, int offsetMinutes) {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put(KIND, KIND_SCHEDULED);
        input.put(JOB, jobId);
        if (offsetMinutes != 0) {
            input.put(OFFSET_MINUTES, offsetMinutes);
        }
        input.put(SCHEDULED_TIME, SCHEDULED_TIME_ATTRIBUTE);
        input.put(EXECUTION_ID, EXECUTION_ID_ATTRIBUTE);
        input.put(ATTEMPT_NUMBER, ATTEMPT_NUMBER_ATTRIBUTE);
        input.put(SCHEDULE_ARN, SCHEDULE_ARN_ATTRIBUTE);
        return input;
    }
}
