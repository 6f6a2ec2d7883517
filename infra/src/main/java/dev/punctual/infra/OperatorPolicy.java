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
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * What an operator of one stage may do with the CLI against it, as a managed policy to attach to their
 * role or group (docs/runbook.md): find the stage ({@code DescribeStacks}), run a job in its function
 * (invoke the pools' {@code live} aliases: {@code run}, {@code replay}, {@code invoke}, verify's runs),
 * read the ledger ({@code status}, {@code blackout list}), hold it for maintenance ({@code maintenance
 * on}, {@code off}, {@code hold}, verify's hold: the lease attributes of the lock items but the fence),
 * skip occurrences ({@code skip}, {@code unskip}, {@code blackout add} and {@code remove}: the skip marks
 * of the lock items, and planned skips as run items), and run the saved Logs Insights queries over the
 * stage's log groups ({@code logs}); and read what {@code verify} checks (function configurations,
 * schedules, the ledger's TTL and backups, queue depths, alarms, log lines).
 *
 * <p>Every ledger write is checked by CliWritesPolicyTest (functions/cli), which runs each writing
 * command of the CLI on the emulator, records the requests it sends and evaluates each against this
 * policy as synthesised; a command it does not know fails it until it is checked or declared read only.
 *
 * <p>Not covered, on purpose: {@code run --local}, {@code invoke}'s and {@code replay}'s local runs and
 * verify's previews run jobs in the operator's JVM and need the functions' own data permissions (the
 * jobs' tables, the ledger's claims and completions); {@code schedules put}, {@code delete} and
 * {@code import} write entity schedules and their ledger notes with the entity services' policy
 * ({@code EntityServicePolicyArn}), not this one. What IAM cannot narrow further (decision 0037): a skip's
 * condition reads the slot, so an operator's crafted request could rewrite a slot's occurrence and status
 * (never the cursor, the lease's fence, the slot's owner or fence); and run items can be put in a skip's
 * shape and deleted, which the CLI does only under its conditions (no run, a skip not yet met).
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
                        + ": operate it with the CLI (run, replay, status, maintenance, skip, blackout, logs)")
                .statements(List.of(
                        allow(List.of("cloudformation:DescribeStacks"), List.of(stack.formatArn(stacks))),
                        allow(List.of("lambda:InvokeFunction"), aliases),
                        allow(List.of("dynamodb:GetItem", "dynamodb:Query", "dynamodb:DescribeTable"), List.of(ledger)),
                        maintenanceWrites(ledger),
                        skipMarks(ledger),
                        pauseMarks(ledger),
                        pauseReads(ledger),
                        skipRuns(ledger),
                        unskipRuns(ledger),
                        approvalMarks(ledger),
                        approvalRuns(ledger),
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

    /**
     * A stage with long jobs (decision 0039): {@code punctual status} reads an occurrence's execution
     * (DescribeExecution) and lists a job's executions (ListExecutions, on its state machine), and {@code
     * punctual cancel} stops one (StopExecution), {@code punctual verify} reads each state machine
     * (DescribeStateMachine) and lists the region's (ListStateMachines, on {@code *}): on the stage's own long
     * jobs' state machines only, spelled
     * from their names as the pools' grants are. Their ledger records ({@code long#<job>}, {@code
     * chunk#<job>#...}) are read with the GetItem and Query on the whole ledger above. Verify reads the depth
     * of the status changes' dead-letter queue, as of every queue of the stage.
     *
     * @param names the long jobs' state machine names, {@code punctual-<stage>-<job>}
     */
    void allowLongRuns(List<String> names, IQueue deadLetters) {
        Stack stack = Stack.of(this);
        List<String> machines = new ArrayList<>();
        List<String> executions = new ArrayList<>();
        List<String> findings = new ArrayList<>();
        for (String name : names) {
            machines.add(LongRuns.stateMachineArn(stack, name));
            executions.add(LongRuns.executionsArn(stack, name));
            findings.add(LongRuns.finding(stack, "execution", name + ":*"));
        }
        policy.addStatements(
                allow(List.of("states:ListExecutions", "states:DescribeStateMachine"), machines),
                // verify's long-jobs check finds state machines the catalog does not name among the
                // region's: listing them has no resource-level permissions.
                allow(List.of("states:ListStateMachines"), List.of("*")),
                allow(List.of("states:DescribeExecution", "states:StopExecution"), executions),
                allow(List.of("sqs:GetQueueAttributes"), List.of(deadLetters.getQueueArn())));
        NagSuppressions.addResourceSuppressions(
                policy,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason("Operator policy: DescribeExecution and StopExecution (status, cancel) on the"
                                + " executions of the stage's long jobs' state machines only"
                                + " (execution:punctual-<stage>-<job>:*), whose names each claim makes at runtime")
                        .appliesTo(findings)
                        .build()));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * {@code maintenance on}, {@code off} and {@code hold} (and verify's hold) take, renew and give back
     * the lease of every lock group ({@code DynamoDbLedgerStore.takeLease}, {@code extendLease} of a hold,
     * {@code releaseLease} and {@code releaseMaintenance}): updates of lock items that name the lease
     * attributes only, and not the fence ({@link LedgerLayout#HOLD_ATTRIBUTES}): a hold leaves the fence as
     * it is (decision 0037), so no operator's write can set a group's fence back; nor can it move a job's
     * cursor or slot (the job's part of its own lock item). AWS pairs an attribute limit with
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
                        Map.of("dynamodb:Attributes", LedgerLayout.HOLD_ATTRIBUTES))))
                .build();
    }

    /**
     * {@code skip}, {@code unskip}, {@code blackout add} and {@code remove} (decision 0033): the mark on the
     * job's or entity's lock item, added or deleted in the transaction that plans or removes the skip,
     * and the prune of marks behind the cursor. The skip's condition reads the slot's occurrence and
     * status (not in flight), which IAM counts as accessed: those two, never the cursor, the lease or the
     * fence ({@link LedgerLayout#SKIP_MARK_ATTRIBUTES}). ReturnValues is not limited, as for maintenance.
     */
    private static PolicyStatement skipMarks(String ledger) {
        return attributesOf("dynamodb:UpdateItem", ledger, LedgerLayout.LOCK_ITEMS, LedgerLayout.SKIP_MARK_ATTRIBUTES);
    }

    /**
     * {@code pause} and {@code resume} (decision 0040): the pause's mark on a job's, a group's or an
     * entity's lock item, and nothing else ({@link LedgerLayout#PAUSE_ATTRIBUTES}): never the cursor, the
     * lease, the fence or the slot. ReturnValues is not limited (ALL_NEW shows a run in flight), as for
     * maintenance.
     */
    private static PolicyStatement pauseMarks(String ledger) {
        return attributesOf("dynamodb:UpdateItem", ledger, LedgerLayout.LOCK_ITEMS, LedgerLayout.PAUSE_ATTRIBUTES);
    }

    /**
     * {@code jobs --stage} (issue 38, item 1): which jobs are paused, read as one
     * BatchGetItem per 100 lock items, projected to the pause mark ({@link LedgerLayout#PAUSE_ATTRIBUTES}):
     * lock items only. A batch that names attributes outside the mark is denied; one that names none (no
     * projection) is not, since {@code ForAllValues} holds for an empty set, so the grant narrows the keys
     * read, not always the attributes. The GetItem above already reads every ledger item whole, so this
     * exposes nothing more.
     */
    private static PolicyStatement pauseReads(String ledger) {
        return attributesOf("dynamodb:BatchGetItem", ledger, LedgerLayout.LOCK_ITEMS, LedgerLayout.PAUSE_ATTRIBUTES);
    }

    /**
     * {@code skip} and {@code blackout add} write each planned skip as the occurrence's run item (a Put in
     * the skip's transaction), in a skip's shape only ({@link LedgerLayout#SKIP_RUN_ATTRIBUTES}): no
     * owner, result, error or attempt history. Run items only: {@code run#<job>} and {@code run#<job>:<entity>}.
     */
    private static PolicyStatement skipRuns(String ledger) {
        return attributesOf("dynamodb:PutItem", ledger, LedgerLayout.RUN_ITEMS, LedgerLayout.SKIP_RUN_ATTRIBUTES);
    }

    /**
     * {@code unskip}, {@code blackout remove} and a {@code blackout add} taking back what it planned delete
     * a planned skip's run item (a Delete in the unskip's transaction), under a condition naming only the
     * skip's marks ({@link LedgerLayout#UNSKIP_ATTRIBUTES}). Run items only, never a lock item.
     */
    private static PolicyStatement unskipRuns(String ledger) {
        return attributesOf("dynamodb:DeleteItem", ledger, LedgerLayout.RUN_ITEMS, LedgerLayout.UNSKIP_ATTRIBUTES);
    }

    /**
     * {@code approve} (decision 0041): the approval's mark on the job's or entity's lock item, added in the
     * transaction that plans it, and the prune of marks behind the cursor; as a skip's mark, its condition
     * reads the slot's occurrence and status only ({@link LedgerLayout#APPROVAL_MARK_ATTRIBUTES}).
     */
    private static PolicyStatement approvalMarks(String ledger) {
        return attributesOf(
                "dynamodb:UpdateItem", ledger, LedgerLayout.LOCK_ITEMS, LedgerLayout.APPROVAL_MARK_ATTRIBUTES);
    }

    /**
     * {@code approve} writes the planned approval as the occurrence's run item (a Put in its transaction), in
     * an approval's shape only ({@link LedgerLayout#APPROVAL_RUN_ATTRIBUTES}): no owner, result, error or
     * attempt history. Run items only.
     */
    private static PolicyStatement approvalRuns(String ledger) {
        return attributesOf("dynamodb:PutItem", ledger, LedgerLayout.RUN_ITEMS, LedgerLayout.APPROVAL_RUN_ATTRIBUTES);
    }

    /** One action on the ledger's items under a partition pattern, naming only the given attributes. */
    private static PolicyStatement attributesOf(String action, String ledger, String items, List<String> attributes) {
        return PolicyStatement.Builder.create()
                .actions(List.of(action))
                .resources(List.of(ledger))
                .conditions(new TreeMap<>(Map.of(
                        "ForAllValues:StringLike",
                        Map.of("dynamodb:LeadingKeys", List.of(items)),
                        "ForAllValues:StringEquals",
                        Map.of("dynamodb:Attributes", attributes))))
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
