package dev.punctual.infra;

import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageOutputs;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.constructs.Construct;

/**
 * The stage stack's outputs that the operator CLI reads to find a stage ({@code punctual --stage NAME}
 * calls {@code DescribeStacks} on {@code Punctual-<stage>}): keys from {@link StageOutputs}, the same
 * constants the CLI reads, pinned as logical ids so a construct move never renames them. No exports:
 * nothing else may come to depend on a stage's outputs.
 */
final class StageOutputsConstruct extends Construct {

    private final Map<String, String> keys = new LinkedHashMap<>();
    private final OperatorPolicy operator;

    /** Every stage output in one place; pools and saved queries each add their own keys. */
    StageOutputsConstruct(Construct scope, String id, OperatedStage stage) {
        super(scope, id);
        String name = stage.stage();
        output(StageOutputs.STAGE_NAME, "The stage this stack is (punctual --stage " + name + ")", name);
        output(
                StageOutputs.LEDGER_TABLE,
                "The run ledger table; the CLI finds it by --stage",
                stage.ledger().getTableName());
        stage.jobTables()
                .forEach((table, resource) -> output(
                        StageOutputs.jobTable(table),
                        "The table " + table + " the catalog's jobs declare; the CLI finds it by --stage",
                        resource.getTableName()));
        output(
                StageOutputs.SCHEDULE_GROUP,
                "The EventBridge Scheduler group holding every schedule of the stage",
                stage.schedules().getScheduleGroupName());
        output(
                StageOutputs.ALARM_TOPIC,
                "Subscribe to this topic to receive the stage's alarms",
                stage.alarmTopic().getTopicArn());
        stage.pools().forEach((pool, operated) -> {
            output(
                    StageOutputs.poolAlias(pool),
                    "The " + FunctionPoolConstruct.ALIAS + " alias of pool " + pool
                            + "; punctual run/replay invoke it (RequestResponse)",
                    operated.alias().getFunctionArn());
            output(
                    StageOutputs.logGroup(pool),
                    "The log group of pool " + pool,
                    operated.logGroup().getLogGroupName());
        });
        this.operator = new OperatorPolicy(this, "Operator", stage);
        output(
                StageOutputs.OPERATOR_POLICY,
                "Attach to an operator's role or group to run the CLI against this stage (docs/runbook.md)",
                operator.policy().getManagedPolicyArn());
        for (SavedQueries.SavedQuery query : SavedQueries.ALL) {
            output(
                    StageOutputs.savedQuery(query.name()),
                    "A saved Logs Insights query; punctual logs runs it",
                    SavedQueries.fullName(name, query));
        }
    }

    /**
     * The outputs a team's services read to put entity schedules ({@code EntityTargets.fromStageOutputs}):
     * the entity group, their managed policy, each entity pool's scheduler role and the dead-letter queue
     * their schedules name. Only a stage whose catalog has a per-entity job declares them.
     */
    void entities(EntityScheduling entities) {
        operator.allowEntityReads(entities);
        output(
                StageOutputs.ENTITY_SCHEDULE_GROUP,
                "The EventBridge Scheduler group of the stage's per-entity schedules, which the team's services"
                        + " create at runtime (docs/entities.md); retained when the stack is deleted",
                entities.group().getScheduleGroupName());
        output(
                StageOutputs.ENTITY_SERVICE_POLICY,
                "Attach to the role of a service that puts, reads, lists and deletes the stage's entity schedules"
                        + " (docs/entities.md)",
                entities.servicePolicy().getManagedPolicyArn());
        entities.roles()
                .forEach((pool, role) -> output(
                        StageOutputs.entitySchedulerRole(pool),
                        "The role entity schedules of pool " + pool + "'s jobs deliver with (their target's RoleArn)",
                        role.getRoleArn()));
        output(
                StageOutputs.SCHEDULER_DEAD_LETTERS,
                "The scheduler's dead-letter queue (alarmed as SchedulerDeadLetters): an entity schedule's"
                        + " DeadLetterConfig",
                entities.deadLetters().getQueueArn());
    }

    /** A stage with long jobs: the operator may read, list and stop their executions (decision 0039). */
    void longRuns(LongRuns longRuns) {
        operator.allowLongRuns(longRuns.stateMachineNames(), longRuns.deadLetters());
    }

    /** Adds one output, refusing a key already taken (two pools whose names differ only by a '-'). */
    void output(String key, String description, String value) {
        String previous = keys.putIfAbsent(key, description);
        if (previous != null) {
            throw new StageConfigException("output " + key + " is declared twice (" + previous + "; " + description
                    + "); give the pools names that differ in more than their hyphens");
        }
        CfnOutput output = CfnOutput.Builder.create(this, key)
                .description(description)
                .value(value)
                .build();
        output.overrideLogicalId(key);
    }
}
