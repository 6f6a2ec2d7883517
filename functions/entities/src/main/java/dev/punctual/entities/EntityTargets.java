package dev.punctual.entities;

import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.stage.StageOutputs;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a put needs to know about the stage, besides the schedule itself: the stage's entity schedule
 * group, and per function pool the function a delivery invokes and the role the scheduler invokes it
 * with, the dead-letter queue and the scheduler's retry bounds. These are the stage's outputs (its
 * {@code live} aliases, its entity scheduler roles, {@link #fromStageOutputs}); the client reads none of
 * them from AWS, so a put costs the schedule's own calls only.
 *
 * @param group the stage's entity schedule group ({@link EntityScheduleName#group})
 * @param pools by pool name ({@code JobDefinition.pool().name()}): the pool's target
 * @param deadLetterQueueArn the SQS queue the scheduler sends a delivery it gave up on to; null for none
 * @param retryAttempts the scheduler's retries of one delivery, 0 to 185
 * @param maximumEventAgeSeconds how long the scheduler keeps retrying one delivery, 60 to 86,400
 */
public record EntityTargets(
        String group,
        Map<String, PoolTarget> pools,
        String deadLetterQueueArn,
        int retryAttempts,
        int maximumEventAgeSeconds) {

    /** The stage's default scheduler retries (infra's {@code RetrySettings.DEFAULT}): 3 within an hour. */
    public static final int DEFAULT_RETRY_ATTEMPTS = 3;

    public static final int DEFAULT_MAXIMUM_EVENT_AGE_SECONDS = 3600;

    // EventBridge Scheduler's own rules, checked here so a bad setup fails before any call, by field.
    private static final Pattern GROUP = Pattern.compile("[0-9A-Za-z_.-]{1,64}");
    private static final Pattern FUNCTION = Pattern.compile("arn:aws[a-z-]*:lambda:[a-z0-9-]+:\\d{12}:function:\\S+");
    private static final Pattern ROLE = Pattern.compile("arn:aws[a-z-]*:iam::\\d{12}:role/\\S+");
    private static final Pattern QUEUE = Pattern.compile("arn:aws[a-z-]*:sqs:[a-z0-9-]+:\\d{12}:\\S+");

    /**
     * One pool's target.
     *
     * @param functionArn the pool's {@code live} alias ARN (stage output {@code PoolAlias<Pool>})
     * @param roleArn the role EventBridge Scheduler assumes to invoke it (stage output
     *     {@code EntitySchedulerRole<Pool>}; the job group's scheduler roles trust only that group)
     */
    public record PoolTarget(String functionArn, String roleArn) {}

    public EntityTargets {
        require(
                group != null && GROUP.matcher(group).matches(),
                "group",
                group,
                "1-64 letters, digits, '_', '.', '-'" + " (the stage's entity group, e.g. "
                        + EntityScheduleName.group("dev") + ")");
        require(pools != null && !pools.isEmpty(), "pools", "(none)", "at least one pool's target");
        pools.forEach((name, target) -> {
            require(target != null, "pools." + name, "(none)", "a function ARN and a role ARN");
            require(
                    target.functionArn() != null
                            && FUNCTION.matcher(target.functionArn()).matches(),
                    "pools." + name + ".functionArn",
                    target.functionArn(),
                    "a Lambda function ARN, the pool's live alias: arn:aws:lambda:<region>:<account>:function:<name>:live");
            require(
                    target.roleArn() != null && ROLE.matcher(target.roleArn()).matches(),
                    "pools." + name + ".roleArn",
                    target.roleArn(),
                    "an IAM role ARN: arn:aws:iam::<account>:role/<name>");
        });
        require(
                deadLetterQueueArn == null || QUEUE.matcher(deadLetterQueueArn).matches(),
                "deadLetterQueueArn",
                deadLetterQueueArn,
                "an SQS queue ARN, arn:aws:sqs:<region>:<account>:<name>, or none");
        pools = Map.copyOf(pools);
        require(
                retryAttempts >= 0 && retryAttempts <= 185,
                "retryAttempts",
                Integer.toString(retryAttempts),
                "a whole number from 0 to 185");
        require(
                maximumEventAgeSeconds >= 60 && maximumEventAgeSeconds <= 86_400,
                "maximumEventAgeSeconds",
                Integer.toString(maximumEventAgeSeconds),
                "60 to 86400 (seconds)");
    }

    /**
     * The targets a deployed stage declares in its stack outputs ({@code aws cloudformation describe-stacks
     * --stack-name Punctual-<stage>}, keys from {@link StageOutputs}): the entity group
     * ({@value StageOutputs#ENTITY_SCHEDULE_GROUP}), for each pool its {@code live} alias
     * ({@code PoolAlias<Pool>}) and entity scheduler role ({@code EntitySchedulerRole<Pool>}), and the
     * scheduler's dead-letter queue ({@value StageOutputs#SCHEDULER_DEAD_LETTERS}); with the stage's
     * default scheduler retries ({@link #DEFAULT_RETRY_ATTEMPTS} within
     * {@link #DEFAULT_MAXIMUM_EVENT_AGE_SECONDS} seconds), which no output carries. A stage configured
     * with other retries is given to {@link #builder} with them instead.
     *
     * @param outputs the stack's outputs, by output key; other keys are ignored
     * @param pools the pools whose jobs' entities are put (each must host a per-entity job in the stage)
     * @throws EntityTargetsException naming the first output key that is missing (a stage deployed before
     *     entity schedules, a catalog without a per-entity job, or a pool that hosts none), or a value that
     *     is not accepted
     */
    public static EntityTargets fromStageOutputs(Map<String, String> outputs, Collection<String> pools) {
        Objects.requireNonNull(outputs, "outputs");
        Objects.requireNonNull(pools, "pools");
        Builder builder = builder(output(
                outputs,
                StageOutputs.ENTITY_SCHEDULE_GROUP,
                "a stage whose catalog has a per-entity job declares it, deployed with this release or later"));
        for (String pool : pools) {
            builder.pool(
                    pool,
                    output(outputs, StageOutputs.poolAlias(pool), "a stage declares it for each of its pools"),
                    output(
                            outputs,
                            StageOutputs.entitySchedulerRole(pool),
                            "a stage declares it for each pool that hosts a per-entity job"));
        }
        return builder.deadLetterQueue(output(
                        outputs,
                        StageOutputs.SCHEDULER_DEAD_LETTERS,
                        "a stage whose catalog has a per-entity job declares it"))
                .build();
    }

    /**
     * {@link #fromStageOutputs(Map, Collection)} for the pools the catalog's per-entity jobs run in: the
     * targets every per-entity job of the catalog can be put with.
     */
    public static EntityTargets fromStageOutputs(Map<String, String> outputs, JobCatalog catalog) {
        Objects.requireNonNull(catalog, "catalog");
        Set<String> pools = new LinkedHashSet<>();
        catalog.jobs().stream()
                .filter(JobDefinition::isPerEntity)
                .forEach(job -> pools.add(job.pool().name()));
        return fromStageOutputs(outputs, pools);
    }

    private static String output(Map<String, String> outputs, String key, String declaredBy) {
        String value = outputs.get(key);
        if (value == null || value.isBlank()) {
            throw new EntityTargetsException(
                    "outputs." + key,
                    "missing from the stage's outputs; accepted: the outputs of the stage's stack, Punctual-<stage> ("
                            + declaredBy + ")");
        }
        return value;
    }

    /** Targets in a group, with the stage's default retries and no dead-letter queue until set. */
    public static Builder builder(String group) {
        return new Builder(group);
    }

    public Optional<String> deadLetterQueue() {
        return Optional.ofNullable(deadLetterQueueArn);
    }

    /** The target of a job's pool, or a refusal naming the pool and the pools that have one. */
    public PoolTarget of(String job, String pool) {
        PoolTarget target = pools.get(pool);
        if (target == null) {
            throw new EntityTargetsException(
                    "pools." + pool,
                    "job '" + job + "' runs in pool '" + pool + "', which has no target here; accepted: a job of a"
                            + " pool with a target (" + String.join(", ", new java.util.TreeSet<>(pools.keySet()))
                            + "), or targets that name pool '" + pool + "'");
        }
        return target;
    }

    private static void require(boolean ok, String field, String given, String accepted) {
        if (!ok) {
            throw new EntityTargetsException(
                    field, "'" + (given == null ? "(none)" : given) + "' is not accepted; accepted: " + accepted);
        }
    }

    /** Fluent construction; checked once, by {@link #build()}. */
    public static final class Builder {
        private final String group;
        private final Map<String, PoolTarget> pools = new LinkedHashMap<>();
        private String deadLetterQueueArn;
        private int retryAttempts = DEFAULT_RETRY_ATTEMPTS;
        private int maximumEventAgeSeconds = DEFAULT_MAXIMUM_EVENT_AGE_SECONDS;

        private Builder(String group) {
            this.group = group;
        }

        public Builder pool(String name, String functionArn, String roleArn) {
            pools.put(name, new PoolTarget(functionArn, roleArn));
            return this;
        }

        public Builder deadLetterQueue(String queueArn) {
            this.deadLetterQueueArn = queueArn;
            return this;
        }

        /** The scheduler's retries of one delivery; a maximum age in whole seconds. */
        public Builder retries(int attempts, Duration maximumEventAge) {
            this.retryAttempts = attempts;
            this.maximumEventAgeSeconds = (int) Math.min(Integer.MAX_VALUE, maximumEventAge.toSeconds());
            return this;
        }

        public EntityTargets build() {
            return new EntityTargets(group, pools, deadLetterQueueArn, retryAttempts, maximumEventAgeSeconds);
        }
    }
}
