package dev.punctual.infra;

import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.Construct;

/**
 * What an operator of one stage may do with the CLI against it, as a managed policy to attach to their
 * role or group (docs/runbook.md): find the stage ({@code DescribeStacks}), run a job in its function
 * (invoke the pools' {@code live} aliases), read the ledger ({@code status}), turn maintenance on and off
 * (writes to the ledger's lock items only, {@code lock#<group>}), and run the saved Logs Insights
 * queries over the stage's log groups ({@code logs}); and read what {@code verify} checks (function
 * configurations, schedules, the ledger's TTL and backups, queue depths, alarms, log lines). Nothing
 * else: {@code run --local} and verify's previews need the functions' own data permissions and are not
 * covered on purpose.
 */
final class OperatorPolicy extends Construct {

    /** The ledger's lock items, where maintenance holds live ({@code Keys.lock}: {@code lock#<group>}). */
    static final String LOCK_ITEMS = "lock#*";

    private final ManagedPolicy policy;

    OperatorPolicy(Construct scope, String id, OperatedStage stage) {
        super(scope, id);
        Stack stack = Stack.of(this);
        String ledger = stage.ledger().getTableArn();
        List<String> aliases = new ArrayList<>();
        List<String> logGroups = new ArrayList<>();
        List<String> queues =
                new ArrayList<>(List.of(stage.schedulerDeadLetters().getQueueArn()));
        stage.pools().values().forEach(pool -> {
            aliases.add(pool.alias().getFunctionArn());
            logGroups.add(pool.logGroup().getLogGroupArn());
            queues.add(pool.failureQueue().getQueueArn());
        });
        String schedules = stack.formatArn(software.amazon.awscdk.ArnComponents.builder()
                .service("scheduler")
                .resource("schedule")
                .resourceName(stage.schedules().getScheduleGroupName() + "/*")
                .build());
        this.policy = ManagedPolicy.Builder.create(this, "Policy")
                .description("Punctual stage " + stage.stage()
                        + ": operate it with the CLI (run, replay, status, maintenance, logs)")
                .statements(List.of(
                        allow(
                                List.of("cloudformation:DescribeStacks"),
                                List.of(stack.formatArn(software.amazon.awscdk.ArnComponents.builder()
                                        .service("cloudformation")
                                        .resource("stack")
                                        .resourceName(dev.punctual.stage.StageOutputs.STACK_PREFIX + "*/*")
                                        .build()))),
                        allow(List.of("lambda:InvokeFunction"), aliases),
                        allow(List.of("dynamodb:GetItem", "dynamodb:Query", "dynamodb:DescribeTable"), List.of(ledger)),
                        PolicyStatement.Builder.create()
                                .actions(List.of("dynamodb:UpdateItem"))
                                .resources(List.of(ledger))
                                .conditions(Map.of(
                                        "ForAllValues:StringLike", Map.of("dynamodb:LeadingKeys", List.of(LOCK_ITEMS))))
                                .build(),
                        allow(List.of("logs:StartQuery"), logGroups),
                        // Query results and saved query definitions have no resource-level permissions.
                        allow(
                                List.of("logs:GetQueryResults", "logs:StopQuery", "logs:DescribeQueryDefinitions"),
                                List.of("*")),
                        // punctual verify's reads (docs/decisions/0015-verify-a-deployed-stage.md).
                        allow(List.of("lambda:GetFunctionConfiguration"), aliases),
                        allow(List.of("scheduler:GetSchedule"), List.of(schedules)),
                        allow(
                                List.of("dynamodb:DescribeTimeToLive", "dynamodb:DescribeContinuousBackups"),
                                List.of(ledger)),
                        allow(List.of("sqs:GetQueueAttributes"), queues),
                        allow(List.of("logs:FilterLogEvents"), logGroups),
                        // Listing schedules, queues and alarms has no resource-level permissions.
                        allow(
                                List.of("scheduler:ListSchedules", "sqs:ListQueues", "cloudwatch:DescribeAlarms"),
                                List.of("*"))))
                .build();
        NagSuppressions.addResourceSuppressions(
                policy,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason("Operator policy: DescribeStacks is limited to Punctual-* stacks (the CLI names the"
                                + " deployed stages when one is unknown); GetQueryResults, StopQuery and"
                                + " DescribeQueryDefinitions support no resource-level permissions, nor do verify's"
                                + " ListSchedules, ListQueues and DescribeAlarms; the stage's schedules are"
                                + " punctual-<stage>/*; the lock items"
                                + " are the ledger's lock#<group> keys and log streams are read through the stage's"
                                + " own log groups")
                        .build()));
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
