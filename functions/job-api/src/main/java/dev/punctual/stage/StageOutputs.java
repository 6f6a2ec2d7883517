package dev.punctual.stage;

import java.util.Locale;

/**
 * The contract between the CDK app and the operator CLI: the name of a stage's stack and the keys of
 * the outputs it declares. The CDK app writes these outputs (CloudFormation {@code Outputs}, no
 * exports, so stages never depend on each other) and {@code punctual --stage NAME} reads them back
 * through {@code DescribeStacks}, through these same constants.
 *
 * <p>Keys are stable across deploys: renaming one breaks every CLI built before the rename.
 */
public final class StageOutputs {

    /** A stage's stack is {@code Punctual-<stage>} (the CDK app's construct id). */
    public static final String STACK_PREFIX = "Punctual-";

    /** The stage's name; a stack without it is not a Punctual stage (nested stacks have none). */
    public static final String STAGE_NAME = "StageName";

    /** The run ledger table's name. */
    public static final String LEDGER_TABLE = "LedgerTableName";

    /** Prefix of each declared job table's name: {@code Table<Name>}, see {@link #jobTable}. */
    public static final String JOB_TABLE_PREFIX = "Table";

    /** The EventBridge Scheduler group holding every schedule of the stage. */
    public static final String SCHEDULE_GROUP = "ScheduleGroupName";

    /** The SNS topic the stage's alarms notify. */
    public static final String ALARM_TOPIC = "AlarmTopicArn";

    /**
     * The URL of the queue holding the lifecycle rule's notices that EventBridge could not deliver to the
     * alarm topic (one of the stage's dead-letter queues, besides the scheduler's and each pool's).
     */
    public static final String ALERT_DEAD_LETTERS = "AlertDeadLettersQueueUrl";

    /** The managed policy an operator of the stage attaches (docs/runbook.md). */
    public static final String OPERATOR_POLICY = "OperatorPolicyArn";

    /** Prefix of each pool's {@code live} alias ARN: {@code PoolAlias<Pool>}, see {@link #poolAlias}. */
    public static final String POOL_ALIAS_PREFIX = "PoolAlias";

    /** Prefix of each pool's log group name: {@code LogGroup<Pool>}, see {@link #logGroup}. */
    public static final String LOG_GROUP_PREFIX = "LogGroup";

    /** Prefix of each saved query's full name ({@code punctual/<stage>/<name>}): {@code Query<Name>}. */
    public static final String SAVED_QUERY_PREFIX = "Query";

    /**
     * The ARN of the scheduler's dead-letter queue (where EventBridge Scheduler puts an occurrence it gave
     * up delivering; alarmed as {@code SchedulerDeadLetters}): the {@code DeadLetterConfig} of an entity's
     * schedule. Output, like the keys below, only by a stage whose catalog has a per-entity job.
     */
    public static final String SCHEDULER_DEAD_LETTERS = "SchedulerDeadLettersArn";

    /**
     * The EventBridge Scheduler group of the stage's per-entity schedules, {@code punctual-<stage>-entities}
     * ({@code EntityScheduleName.group}): the team's services create them there at runtime
     * (docs/entities.md). Beside the stage's own group ({@link #SCHEDULE_GROUP}), never in it.
     */
    public static final String ENTITY_SCHEDULE_GROUP = "EntityScheduleGroupName";

    /**
     * The managed policy a team's service attaches to put, get, list and delete entity schedules in the
     * stage's entity group and to pass them the entity scheduler roles (docs/entities.md).
     */
    public static final String ENTITY_SERVICE_POLICY = "EntityServicePolicyArn";

    /**
     * Prefix of each entity scheduler role's ARN, {@code EntitySchedulerRole<Pool>} (see
     * {@link #entitySchedulerRole}): the role an entity schedule of that pool's jobs delivers with. Only
     * pools that host a per-entity job have one.
     */
    public static final String ENTITY_SCHEDULER_ROLE_PREFIX = "EntitySchedulerRole";

    private StageOutputs() {}

    /** The stack of a stage, e.g. {@code Punctual-dev}. */
    public static String stackName(String stage) {
        return STACK_PREFIX + stage;
    }

    /** The output key of a pool's alias ARN, e.g. {@code PoolAliasDefault} for pool {@code default}. */
    public static String poolAlias(String pool) {
        return POOL_ALIAS_PREFIX + pascal(pool);
    }

    /**
     * The output key of a pool's function name, e.g. {@code PoolFunctionDefault} (for {@code aws lambda
     * invoke}); cased as every other key (it was {@code FunctionOfdefault}).
     */
    public static String poolFunction(String pool) {
        return "PoolFunction" + pascal(pool);
    }

    /**
     * The output key of a table the catalog's jobs declare, e.g. {@code TableDemoDomain}: its declared
     * name, already alphanumeric, after the prefix.
     */
    public static String jobTable(String name) {
        return JOB_TABLE_PREFIX + name;
    }

    /**
     * The output key of the role a pool's entity schedules deliver with, e.g.
     * {@code EntitySchedulerRoleDefault} for pool {@code default}.
     */
    public static String entitySchedulerRole(String pool) {
        return ENTITY_SCHEDULER_ROLE_PREFIX + pascal(pool);
    }

    /** The output key of a pool's log group, e.g. {@code LogGroupDefault}. */
    public static String logGroup(String pool) {
        return LOG_GROUP_PREFIX + pascal(pool);
    }

    /** The output key of a saved query, e.g. {@code QueryJobTimeline} for {@code job-timeline}. */
    public static String savedQuery(String name) {
        return SAVED_QUERY_PREFIX + pascal(name);
    }

    /**
     * Output keys are alphanumeric: {@code my-pool-2} becomes {@code MyPool2}. Two names could meet
     * ({@code a-1} and {@code a1}); the CDK app refuses such a pair of pools at synth.
     */
    static String pascal(String name) {
        StringBuilder key = new StringBuilder();
        boolean upper = true;
        for (char c : name.toCharArray()) {
            if (!Character.isLetterOrDigit(c)) {
                upper = true;
                continue;
            }
            key.append(upper ? String.valueOf(c).toUpperCase(Locale.ROOT) : String.valueOf(c));
            upper = false;
        }
        return key.toString();
    }
}
