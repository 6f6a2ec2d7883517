package dev.punctual.infra;

import dev.punctual.stage.StageOutputs;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.Construct;

/**
 * What an operator of one stage may do with the CLI against it, as a managed policy to attach to their
 * role or group (docs/runbook.md): find the stage ({@code DescribeStacks}), run a job in its function
 * (invoke the pools' {@code live} aliases), read the ledger ({@code status}), turn maintenance on and off
 * (the lease attributes of the ledger's lock items only, {@code lock#<group>}), and run the saved Logs Insights
 * queries over the stage's log groups ({@code logs}); and read what {@code verify} checks (function
 * configurations, schedules, the ledger's TTL and backups, queue depths, alarms, log lines). Nothing
 * else: {@code run --local} and verify's previews need the functions' own data permissions and are not
 * covered on purpose.
 */
final class OperatorPolicy extends Construct {

    /** The ledger's lock items, where maintenance holds live ({@code Keys.lock}: {@code lock#<group>}). */
    static final String LOCK_ITEMS = LedgerLayout.LOCK_ITEMS;

    private final ManagedPolicy policy;

    OperatorPolicy(Construct scope, String id, OperatedStage stage) {
        super(scope, id);
        Stack stack = Stack.of(this);
        String ledger = stage.ledger().getTableArn();
        List<String> aliases = new ArrayList<>();
        List<String> functions = new ArrayList<>();
        List<String> logGroups = new ArrayList<>();
        List<String> queues = new ArrayList<>(List.of(
                stage.schedulerDeadLetters().getQueueArn(),
                stage.alertDeadLetters().getQueueArn()));
        stage.pools().values().forEach(pool -> {
            aliases.add(pool.alias().getFunctionArn());
            functions.add(pool.function().getFunctionArn());
            logGroups.add(pool.logGroup().getLogGroupArn());
            queues.add(pool.failureQueue().getQueueArn());
        });
        ArnComponents stacks = ArnComponents.builder()
                .service("cloudformation")
                .resource("stack")
                .resourceName(StageOutputs.STACK_PREFIX + "*/*")
                .build();
        ArnComponents schedules = ArnComponents.builder()
                .service("scheduler")
                .resource("schedule")
                .resourceName(stage.schedules().getScheduleGroupName() + "/*")
                .build();
        this.policy = ManagedPolicy.Builder.create(this, "Policy")
                .description("Punctual stage " + stage.stage()
                        + ": operate it with the CLI (run, replay, status, maintenance, logs)")
                .statements(List.of(
                        allow(List.of("cloudformation:DescribeStacks"), List.of(stack.formatArn(stacks))),
                        allow(List.of("lambda:InvokeFunction"), aliases),
                        allow(List.of("dynamodb:GetItem", "dynamodb:Query", "dynamodb:DescribeTable"), List.of(ledger)),
                        maintenanceWrites(ledger),
                        allow(List.of("logs:StartQuery"), logGroups),
                        // Query results and saved query definitions have no resource-level permissions.
                        allow(
                                List.of("logs:GetQueryResults", "logs:StopQuery", "logs:DescribeQueryDefinitions"),
                                List.of("*")),
                        // punctual verify's reads (docs/decisions/0015-verify-a-deployed-stage.md).
                        allow(List.of("lambda:GetFunctionConfiguration"), aliases),
                        allow(List.of("scheduler:GetSchedule"), List.of(stack.formatArn(schedules))),
                        allow(
                                List.of("dynamodb:DescribeTimeToLive", "dynamodb:DescribeContinuousBackups"),
                                List.of(ledger)),
                        allow(List.of("sqs:GetQueueAttributes"), queues),
                        allow(List.of("logs:FilterLogEvents"), logGroups),
                        // verify finds the stage's queues and alarms among its stack's resources, never by
                        // a name prefix another stage's name could share (dev, dev-eu).
                        allow(List.of("cloudformation:ListStackResources"), List.of(stack.formatArn(stacks))),
                        // verify's access check: who else may call each function and its live alias.
                        allow(List.of("lambda:GetPolicy"), concat(functions, aliases)),
                        allow(List.of("lambda:ListFunctionUrlConfigs"), functions),
                        // Listing schedules, alarms and event source mappings has no resource-level
                        // permissions.
                        allow(
                                List.of(
                                        "scheduler:ListSchedules",
                                        "cloudwatch:DescribeAlarms",
                                        "lambda:ListEventSourceMappings"),
                                List.of("*"))))
                .build();
        NagSuppressions.addResourceSuppressions(
                policy,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason("Operator policy: DescribeStacks is limited to Punctual-* stacks (the CLI names the"
                                + " deployed stages when one is unknown); GetQueryResults, StopQuery and"
                                + " DescribeQueryDefinitions support no resource-level permissions, nor do verify's"
                                + " ListSchedules, DescribeAlarms and ListEventSourceMappings (Resource *);"
                                + " ListStackResources is limited to Punctual-* stacks like DescribeStacks; GetSchedule is"
                                + " limited to the stage's own group, punctual-<stage>/*")
                        .appliesTo(List.of(finding(stack, stacks), finding(stack, schedules), "Resource::*"))
                        .build()));
    }

    /**
     * A stage with entity schedules: {@code run}, {@code replay} and {@code status --entity} read one
     * entity's schedule (GetSchedule, in the entity group only), and verify's entity-group check reads the
     * group (GetScheduleGroup) and the services' policy's default version (GetPolicy, GetPolicyVersion,
     * on that policy only). Reads only: creating or deleting entity schedules is the services' policy's.
     */
    void allowEntityReads(EntityScheduling entities) {
        Stack stack = Stack.of(this);
        ArnComponents schedules = ArnComponents.builder()
                .service("scheduler")
                .resource("schedule")
                .resourceName(entities.group().getScheduleGroupName() + "/*")
                .build();
        policy.addStatements(
                allow(List.of("scheduler:GetSchedule"), List.of(stack.formatArn(schedules))),
                allow(
                        List.of("scheduler:GetScheduleGroup"),
                        List.of(entities.group().getScheduleGroupArn())),
                allow(
                        List.of("iam:GetPolicy", "iam:GetPolicyVersion"),
                        List.of(entities.servicePolicy().getManagedPolicyArn())));
        NagSuppressions.addResourceSuppressions(
                policy,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason("Operator policy: GetSchedule of one entity's schedule is limited to the stage's"
                                + " entity group, punctual-<stage>-entities/*")
                        .appliesTo(List.of(finding(stack, schedules)))
                        .build()));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * {@code maintenance on} and {@code off} (and verify's hold) take and give back the lease of every lock
     * group ({@code DynamoDbLedgerStore.takeLease} and {@code releaseMaintenance}): updates of lock items
     * that name the lease attributes only, so an operator can hold a group but cannot move a job's cursor
     * or slot (the job's part of its own lock item) or touch a run item. AWS pairs an attribute limit with
     * {@code dynamodb:ReturnValues} NONE or UPDATED_* so that the update cannot return other attributes;
     * that is left out on purpose: the adapter asks for ALL_NEW (the lease it took, read in the same
     * write), and this policy reads every ledger item with GetItem anyway, so it would deny maintenance
     * and hide nothing. A request that names no attribute cannot change one, so {@code ForAllValues} being
     * true for an empty list opens nothing.
     */
    private static PolicyStatement maintenanceWrites(String ledger) {
        return PolicyStatement.Builder.create()
                .actions(List.of("dynamodb:UpdateItem"))
                .resources(List.of(ledger))
                .conditions(new TreeMap<>(Map.of(
                        "ForAllValues:StringLike",
                        Map.of("dynamodb:LeadingKeys", List.of(LOCK_ITEMS)),
                        "ForAllValues:StringEquals",
                        Map.of("dynamodb:Attributes", LedgerLayout.LEASE_ATTRIBUTES))))
                .build();
    }

    /**
     * A wildcard resource as cdk-nag names its finding, so the suppression covers exactly the stacks and
     * schedules above and {@code *} (the actions without resource-level permissions), and a wildcard
     * added later is reported: pseudo parameters as {@code <AWS::Name>}, a pinned stage's account and
     * region as they are.
     */
    static String finding(Stack stack, ArnComponents arn) {
        return "Resource::arn:" + pseudo(stack.getPartition(), "AWS::Partition") + ":" + arn.getService() + ":"
                + pseudo(stack.getRegion(), "AWS::Region") + ":" + pseudo(stack.getAccount(), "AWS::AccountId") + ":"
                + arn.getResource() + "/" + arn.getResourceName();
    }

    private static String pseudo(String value, String name) {
        return Token.isUnresolved(value) ? "<" + name + ">" : value;
    }

    private static PolicyStatement allow(List<String> actions, List<String> resources) {
        return PolicyStatement.Builder.create()
                .actions(actions)
                .resources(resources)
                .build();
    }

    ManagedPolicy policy() {
        return policy;
    }
}
