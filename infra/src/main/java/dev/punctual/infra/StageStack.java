package dev.punctual.infra;

import dev.punctual.PunctualException;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageOutputs;
import dev.punctual.time.ScheduleExpressionException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Tags;
import software.amazon.awscdk.TimeZone;
import software.amazon.awscdk.services.events.EventBus;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.amazon.awscdk.services.scheduler.Schedule;
import software.amazon.awscdk.services.scheduler.ScheduleExpression;
import software.amazon.awscdk.services.scheduler.ScheduleGroup;
import software.amazon.awscdk.services.scheduler.ScheduleTargetInput;
import software.amazon.awscdk.services.scheduler.TimeWindow;
import software.amazon.awscdk.services.scheduler.targets.LambdaInvoke;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.constructs.Construct;

/**
 * One stage of Punctual: its tables, lifecycle bus, one function pool per pool of the catalog, the
 * schedule group, keep-warm pings, alarms and saved queries, and when the catalog has a per-entity job
 * the entity group, its roles and the services' policy ({@link EntityScheduling}); the per-job schedules
 * and missed-run alarms go into {@link JobsStack}s nested in it.
 */
public final class StageStack extends Stack {

    /**
     * Jobs spread over this many nested stacks ({@code Jobs0} to {@code Jobs31}) by a hash of the id
     * alone. Fixed, because changing it moves most jobs to another stack, and CloudFormation may create
     * a moved schedule (named by its job id) before deleting it from its old stack, which rolls the
     * deploy back. At 2,000 jobs a shard averages 63 and the fullest holds about 80 (40% of
     * {@link #MAX_JOBS_PER_SHARD}), so the catalog can more than double; the stage stack gains at most
     * 32 nested-stack resources.
     */
    public static final int JOB_SHARDS = 32;

    /**
     * A shard holding more jobs is refused: two resources each, plus room for the nested stack's own
     * (CloudFormation allows 500 per stack), and about 3.4 KB of template each (680 KB of 1 MB).
     */
    public static final int MAX_JOBS_PER_SHARD = 200;

    /** A SnapStart version not invoked for 14 days goes inactive; ping well inside that. */
    public static final Duration KEEP_WARM_IF_IDLE_OVER = Duration.ofDays(7);

    /** Weekly, Monday 04:00 UTC: the ping's only job is to touch the alias's version. */
    public static final String KEEP_WARM_EXPRESSION = "cron(0 4 ? * MON *)";

    /** Schedule names of pings; a '.' cannot appear in a job id, so they never collide with jobs. */
    public static final String KEEP_WARM_PREFIX = "punctual.keep-warm.";

    private final StageConfig config;
    private final LedgerTables tables;
    private final EventBus bus;
    private final Map<String, FunctionPoolConstruct> pools = new LinkedHashMap<>();
    private final Queue schedulerDeadLetters;
    private final Alerting alerting;
    private final ScheduleGroup scheduleGroup;
    private final Map<String, Cadence> jobCadences = new LinkedHashMap<>();
    private final Map<String, Cadence> poolCadences = new LinkedHashMap<>();
    private final Map<String, Schedule> keepWarm = new LinkedHashMap<>();
    private final List<JobsStack> jobStacks = new ArrayList<>();
    private final SchedulerRoles schedulerRoles;
    private final Optional<EntityScheduling> entityScheduling;
    private final Optional<LongRuns> longRuns;
    private LifecycleAlerts lifecycleAlerts;
    private DeadLetterConsumer deadLetterConsumer;

    /** Cadences are measured over {@link Cadence#REFERENCE}'s window, so the template never depends on today. */
    public StageStack(Construct scope, String id, StackProps props, StageConfig config, JobCatalog catalog, Code code) {
        super(scope, id, props);
        checkAttemptsFitLambdaRetries(config, catalog);
        checkReservationsNamePools(config, catalog);
        checkSchedulesDeployable(catalog);
        LongRuns.checkNames(config.stage(), catalog);
        this.config = config;
        this.tables = new LedgerTables(
                this,
                "Tables",
                config,
                catalog.tables(),
                catalog.jobs().stream().anyMatch(JobDefinition::isPerEntity));
        this.bus = EventBus.Builder.create(this, "LifecycleBus")
                .eventBusName(LifecycleAlerts.busName(config.stage()))
                .description("Punctual lifecycle events (see docs/events.md)")
                .build();
        for (FunctionPool pool : catalog.pools()) {
            pools.put(
                    pool.name(),
                    new FunctionPoolConstruct(
                            this,
                            "Pool-" + pool.name(),
                            config,
                            pool,
                            code,
                            tables,
                            PoolLedgerKeys.of(catalog, pool.name()),
                            catalog.tablesOf(pool.name()),
                            catalog.maintenanceConditions(),
                            bus));
        }
        this.schedulerDeadLetters = FunctionPoolConstruct.deadLetterQueue(this, "SchedulerDeadLetters");
        this.alerting = new Alerting(this, "Alerting", config);
        this.scheduleGroup = ScheduleGroup.Builder.create(this, "Schedules")
                .scheduleGroupName("punctual-" + config.stage())
                // The stack owns every schedule in the group; a retained empty group would only block
                // deploying the stage again under the same name.
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        for (JobDefinition job : catalog.scheduled()) {
            jobCadences.put(job.id(), Cadence.of(job.schedule(), Cadence.REFERENCE));
        }
        for (FunctionPool pool : catalog.pools()) {
            poolCadences.put(
                    pool.name(),
                    Cadence.of(
                            catalog.inPool(pool.name()).stream()
                                    .map(JobDefinition::schedule)
                                    .toList(),
                            Cadence.REFERENCE));
        }
        this.schedulerRoles =
                new SchedulerRoles(this, "SchedulerRoles", scheduleGroup, aliases(), schedulerDeadLetters);
        this.entityScheduling = entityScheduling(catalog);
        addKeepWarm();
        addJobs(catalog);
        // Only a catalog with a long job gets state machines, their rules and grants (decision 0039).
        this.longRuns = LongRuns.needed(catalog)
                ? Optional.of(new LongRuns(this, "LongRuns", config, catalog, pools, alerting))
                : Optional.empty();
        observe(catalog, code);
        outputs();
        Tags.of(this).add("punctual:stage", config.stage());
    }

    /** Where EventBridge puts the stage's notices it could not deliver to the alarm topic. */
    IQueue alertDeadLetters() {
        return lifecycleAlerts.deadLetters();
    }

    /**
     * What an operator needs after a deploy: each pool's function name (for {@code aws lambda invoke}),
     * and the outputs the CLI finds the stage by ({@link StageOutputsConstruct}).
     */
    private void outputs() {
        pools.forEach((name, pool) -> CfnOutput.Builder.create(this, StageOutputs.poolFunction(name))
                .description("Function of pool " + name + "; invoke it as <name>:" + FunctionPoolConstruct.ALIAS)
                .value(pool.function().getFunctionName())
                .build()
                .overrideLogicalId(StageOutputs.poolFunction(name)));
        StageOutputsConstruct stageOutputs = new StageOutputsConstruct(this, "StageOutputs", OperatedStage.of(this));
        entityScheduling.ifPresent(stageOutputs::entities);
        longRuns.ifPresent(stageOutputs::longRuns);
        CfnOutput.Builder.create(this, StageOutputs.ALERT_DEAD_LETTERS)
                .description("The queue of notices EventBridge could not deliver to the alarm topic (a dead-letter"
                        + " queue of the stage, alarmed as AlertDeadLetters)")
                .value(lifecycleAlerts.deadLetters().getQueueUrl())
                .build()
                .overrideLogicalId(StageOutputs.ALERT_DEAD_LETTERS);
    }

    /**
     * A weekly {@code ping} to each pool that could otherwise idle for more than
     * {@link #KEEP_WARM_IF_IDLE_OVER} — and to every pool while the stage's schedules are off, so that
     * a manual run still finds an active SnapStart version.
     */
    private void addKeepWarm() {
        RetrySettings retries = config.retries();
        for (FunctionPoolConstruct pool : pools.values()) {
            String name = poolName(pool);
            boolean needed = !config.flags().schedulesEnabled()
                    || poolCadences.get(name).mayIdleLongerThan(KEEP_WARM_IF_IDLE_OVER);
            if (!needed) {
                continue;
            }
            keepWarm.put(
                    name,
                    Schedule.Builder.create(this, "KeepWarm-" + name)
                            .scheduleName(KEEP_WARM_PREFIX + name)
                            .scheduleGroup(scheduleGroup)
                            .description("Punctual: weekly ping so the SnapStart version of pool " + name
                                    + " never goes inactive (14 days without an invoke)")
                            .schedule(ScheduleExpression.expression(KEEP_WARM_EXPRESSION, TimeZone.of("UTC")))
                            .timeWindow(TimeWindow.off())
                            .enabled(true)
                            .target(LambdaInvoke.Builder.create(pool.alias())
                                    .role(schedulerRoles.of(name))
                                    .input(ScheduleTargetInput.fromObject(Map.of("kind", "ping")))
                                    .retryAttempts(retries.schedulerRetryAttempts())
                                    .maxEventAge(software.amazon.awscdk.Duration.seconds(
                                            retries.schedulerMaxEventAge().toSeconds()))
                                    .deadLetterQueue(schedulerDeadLetters)
                                    .build())
                            .build());
        }
    }

    private void addJobs(JobCatalog catalog) {
        JobsStack.Shared shared = new JobsStack.Shared(
                config, scheduleGroup, aliases(), schedulerDeadLetters, alerting.topic(), schedulerRoles);
        // A per-entity job's schedules are created at runtime: the stage deploys none for it.
        byShard(catalog.scheduled()).forEach((shard, share) -> {
            if (share.size() > MAX_JOBS_PER_SHARD) {
                throw new PunctualException("jobs stack Jobs" + shard + " would hold " + share.size()
                        + " jobs, more than " + MAX_JOBS_PER_SHARD + " (two resources each, within CloudFormation's"
                        + " 500 per stack): the catalog has outgrown StageStack.JOB_SHARDS = " + JOB_SHARDS
                        + "; raising it moves most jobs to another stack, which takes a two-step deploy"
                        + " (docs/deploy.md)");
            }
            jobStacks.add(new JobsStack(this, "Jobs" + shard, shared, share, jobCadences));
        });
    }

    /**
     * The entity group, roles and service policy, in a stage whose catalog has a per-entity job; none in
     * any other, whose template stays as it was before per-entity jobs.
     */
    private Optional<EntityScheduling> entityScheduling(JobCatalog catalog) {
        if (!EntityScheduling.needed(catalog)) {
            return Optional.empty();
        }
        Map<String, IFunction> aliases = new LinkedHashMap<>();
        for (String pool : EntityScheduling.pools(catalog)) {
            aliases.put(pool, pools.get(pool).alias());
        }
        return Optional.of(new EntityScheduling(
                this,
                "EntityScheduling",
                config.stage(),
                aliases,
                schedulerDeadLetters,
                tables.ledger().getTableArn(),
                EntityScheduling.perEntityJobs(catalog)));
    }

    /** Each pool's {@value FunctionPoolConstruct#ALIAS} alias, by pool name: what schedules target. */
    private Map<String, IFunction> aliases() {
        Map<String, IFunction> aliases = new LinkedHashMap<>();
        pools.forEach((name, pool) -> aliases.put(name, pool.alias()));
        return aliases;
    }

    /** The jobs of each non-empty shard, by shard number. */
    static SortedMap<Integer, List<JobDefinition>> byShard(List<JobDefinition> jobs) {
        SortedMap<Integer, List<JobDefinition>> byShard = new TreeMap<>();
        for (JobDefinition job : jobs) {
            byShard.computeIfAbsent(shardOf(job.id()), s -> new ArrayList<>()).add(job);
        }
        return byShard;
    }

    /**
     * A job's shard: CRC-32 of its id modulo {@link #JOB_SHARDS}, so it never depends on the catalog's
     * size or order, and adding or removing a job leaves every other job where it was.
     */
    static int shardOf(String jobId) {
        CRC32 crc = new CRC32();
        crc.update(jobId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % JOB_SHARDS);
    }

    private void observe(JobCatalog catalog, Code code) {
        this.lifecycleAlerts = new LifecycleAlerts(this, "LifecycleAlerts", config.stage(), bus, alerting.topic());
        List<ILogGroup> logGroups =
                pools.values().stream().map(p -> (ILogGroup) p.logGroup()).toList();
        List<IQueue> deadLetters = new ArrayList<>();
        deadLetters.add(schedulerDeadLetters);
        alerting.failures();
        alerting.missed();
        alerting.overdue();
        if (!catalog.maintenanceConditions().isEmpty()) {
            alerting.maintenanceUnknown();
        }
        // Decision 0041: only a catalog with a job that may need approval has the alarm (and its cost).
        if (catalog.jobs().stream().anyMatch(j -> j.approval() != dev.punctual.job.ApprovalRule.NEVER)) {
            alerting.unapproved();
        }
        alerting.watchdogSilent();
        // Only where the watchdog watches a job (itself excepted: it never judges its own freshness).
        if (catalog.jobs().stream()
                .filter(job -> !job.id().equals(dev.punctual.runtime.MissedRunWatchdog.ID))
                .anyMatch(job -> job.freshnessBound(config.freshness()).isPresent())) {
            alerting.stale();
        }
        alerting.deadLetters(
                "SchedulerDeadLetters",
                schedulerDeadLetters,
                "the scheduler gave up delivering an occurrence (its retries and maximum event age ran out)",
                "read the message (aws sqs receive-message --queue-url URL: job and scheduled time), fix the cause"
                        + " (usually a missing permission or a deleted alias), run that occurrence by hand with punctual"
                        + " run JOB --at T, then delete the message",
                "scheduler-dead-letters");
        for (FunctionPoolConstruct pool : pools.values()) {
            deadLetters.add(pool.failureQueue());
            alerting.deadLetters(
                    pool.getNode().getId() + "-AsyncFailures",
                    pool.failureQueue(),
                    "Lambda gave up an invocation of pool " + poolName(pool)
                            + " after its own retries (the function crashed or timed out every time)",
                    "read the message, look for timeouts and out-of-memory in the pool's log group, fix, run the"
                            + " occurrence by hand with punctual run JOB --at T, then delete the message",
                    "async-failures");
        }
        consumeDeadLetters(code, deadLetters);
        SavedQueries.add(this, config.stage(), catalog, logGroups);
        Map<String, IFunction> functions = new LinkedHashMap<>();
        Map<String, List<JobDefinition>> jobsByPool = new LinkedHashMap<>();
        pools.forEach((name, pool) -> {
            functions.put(name, pool.function());
            jobsByPool.put(name, catalog.inPool(name));
        });
        new ConsoleTestEvents(
                this,
                "ConsoleTestEvents",
                "java21".equals(config.lambdaRuntime()) ? Runtime.JAVA_21 : Runtime.JAVA_25,
                code,
                functions,
                jobsByPool);
        longRuns.ifPresent(runs -> {
            deadLetters.add(runs.deadLetters());
            alerting.deadLetters(
                    "LongRunDeadLetters",
                    runs.deadLetters(),
                    "EventBridge could not deliver a long job's execution status change (failed, timed out or aborted)"
                            + " to its pool's function after its retries, so that occurrence may still be RUNNING in"
                            + " the ledger and its group held",
                    "read the message (the execution's ARN and status), fix why the function refused it, then punctual"
                            + " status JOB --stage " + config.stage() + "; the watchdog's sweep records an ended"
                            + " execution's occurrence too; delete the message",
                    "long-run-dead-letters");
        });
        deadLetters.add(lifecycleAlerts.deadLetters());
        alerting.deadLetters(
                "AlertDeadLetters",
                lifecycleAlerts.deadLetters(),
                "EventBridge could not deliver a notice (a failure after the last attempt, a missed range or an"
                        + " overdue occurrence) to the alarm topic after its retries; the notice is in the queue",
                "read it (aws sqs receive-message --queue-url URL) and act on it as on the notice it names, then find"
                        + " why the topic refused it (its policy or key) and redeploy the stage",
                "alert-dead-letters");
        new ContributorInsights(this, "ContributorInsights", config.stage(), logGroups)
                .addTo(alerting.dashboard(deadLetters, logGroups));
    }

    /**
     * The dead-letter consumer (decision 0044) on the queues that hold given-up deliveries of occurrences:
     * the Scheduler's and each pool's on-failure destination. The long runs' and the alerts' queues hold
     * status changes and notices, not deliveries, and stay as they are.
     */
    private void consumeDeadLetters(Code code, List<IQueue> deadLetters) {
        Map<String, Queue> consumed = new LinkedHashMap<>();
        consumed.put("SchedulerDeadLetters", schedulerDeadLetters);
        pools.forEach((name, pool) -> consumed.put(pool.getNode().getId() + "-AsyncFailures", pool.failureQueue()));
        this.deadLetterConsumer = new DeadLetterConsumer(this, "DeadLetters", config, code, tables, bus, consumed);
        deadLetters.add(deadLetterConsumer.unreadable());
        alerting.undelivered();
        alerting.deadLetters(
                "UnreadableDeadLetters",
                deadLetterConsumer.unreadable(),
                "the dead-letter consumer could not read a dead-lettered message as a delivery of an occurrence (or"
                        + " could not record it " + DeadLetterConsumer.MAX_RECEIVES + " times), so SQS kept it here",
                "read it (aws sqs receive-message --queue-url URL) and the consumer's log line naming its message id;"
                        + " for a delivery, punctual run JOB --at T, then delete the message",
                "unreadable-dead-letters");
    }

    /** The function that records dead-lettered deliveries, and its kept queue. */
    DeadLetterConsumer deadLetterConsumer() {
        return deadLetterConsumer;
    }

    private static String poolName(FunctionPoolConstruct pool) {
        return pool.getNode().getId().substring("Pool-".length());
    }

    public StageConfig config() {
        return config;
    }

    public Queue schedulerDeadLetters() {
        return schedulerDeadLetters;
    }

    public Alerting alerting() {
        return alerting;
    }

    /**
     * A failed scheduled occurrence is retried by Lambda's async retries (the handler throws while
     * attempts remain). A job allowing more attempts than one delivery has tries would throw on the
     * last try and land in the on-failure queue instead of being recorded as exhausted.
     */
    static void checkAttemptsFitLambdaRetries(StageConfig config, JobCatalog catalog) {
        int tries = config.retries().lambdaRetryAttempts() + 1;
        for (JobDefinition job : catalog.jobs()) {
            // A long job's attempts are each chunk's, retried by its state machine (decision 0039, 4), up
            // to LongRun.MOST_ATTEMPTS whatever Lambda's retries.
            if (!job.isLong() && job.maxAttempts() > tries) {
                throw new StageConfigException("job " + job.id() + " maxAttempts: '"
                        + job.maxAttempts() + "' is not accepted in stage " + config.stage() + "; expected at most "
                        + tries + " (retries.lambdaRetryAttempts + 1: the tries one delivery gets)");
            }
        }
    }

    /** Refuses a schedule EventBridge could not fire at Punctual's occurrences, naming the job. */
    static void checkSchedulesDeployable(JobCatalog catalog) {
        for (JobDefinition job : catalog.jobs()) {
            try {
                job.deployment();
            } catch (ScheduleExpressionException e) {
                throw new StageConfigException("job " + job.id() + " schedule " + e.getMessage());
            }
        }
    }

    /** A reservation for a pool the catalog does not have is a typo that would silently reserve nothing. */
    static void checkReservationsNamePools(StageConfig config, JobCatalog catalog) {
        List<String> pools = catalog.pools().stream().map(FunctionPool::name).toList();
        for (String pool : config.reservedConcurrency().keySet()) {
            if (!pools.contains(pool)) {
                throw new StageConfigException(
                        "reservedConcurrency." + pool, pool, "a function pool of the catalog, one of " + pools);
            }
        }
    }

    public LedgerTables tables() {
        return tables;
    }

    public EventBus bus() {
        return bus;
    }

    /** The rule that sends the notices needing attention to the alarm topic, and its dead-letter queue. */
    public LifecycleAlerts lifecycleAlerts() {
        return lifecycleAlerts;
    }

    public Map<String, FunctionPoolConstruct> pools() {
        return pools;
    }

    public ScheduleGroup scheduleGroup() {
        return scheduleGroup;
    }

    /** Each job's cadence, by job id. */
    public Map<String, Cadence> jobCadences() {
        return jobCadences;
    }

    /** Each pool's cadence (the union of its jobs' schedules), by pool name. */
    public Map<String, Cadence> poolCadences() {
        return poolCadences;
    }

    /** The keep-warm ping schedules, by pool name. */
    public Map<String, Schedule> keepWarm() {
        return keepWarm;
    }

    /** The entity group, its roles and the services' policy; empty when the catalog has no per-entity job. */
    Optional<EntityScheduling> entityScheduling() {
        return entityScheduling;
    }

    /** The state machines, rules and alarms of the catalog's long jobs; empty when it has none. */
    Optional<LongRuns> longRuns() {
        return longRuns;
    }

    /** The role each pool's schedules deliver with, by pool name. */
    SchedulerRoles schedulerRoles() {
        return schedulerRoles;
    }

    public List<JobsStack> jobStacks() {
        return jobStacks;
    }
}
