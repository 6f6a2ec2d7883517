package dev.punctual.cli.verify;

import dev.punctual.stage.StageConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudwatchlogs.model.LogGroup;
import software.amazon.awssdk.services.sqs.model.ListQueuesResponse;

/**
 * Finds a stage's resources: the stack {@code Punctual-<stage>} (DescribeStacks) and its outputs, then
 * the queues and log groups CloudFormation named after the stack.
 */
public final class StageDiscovery {

    static final String FUNCTION_OUTPUT_PREFIX = "FunctionOf";
    static final String LEDGER_TABLE_OUTPUT = "LedgerTableName";
    static final String SCHEDULE_GROUP_OUTPUT = "ScheduleGroupName";

    private StageDiscovery() {}

    public static String stackName(String stage) {
        return "Punctual-" + stage;
    }

    /** @throws StageConfigException when the stage's stack does not exist where the credentials point */
    public static StageInventory discover(StageAws aws, String stage) {
        String stackName = stackName(stage);
        Stack stack;
        try {
            stack = aws.cloudFormation()
                    .describeStacks(r -> r.stackName(stackName))
                    .stacks()
                    .getFirst();
        } catch (CloudFormationException e) {
            throw new StageConfigException(
                    "--stage",
                    stage,
                    "a deployed stage; there is no stack " + stackName + " in region " + aws.region()
                            + " of these credentials (" + e.awsErrorDetails().errorMessage() + "); deploy it with"
                            + " cdk deploy -c stage=" + stage + " or check AWS_PROFILE and --region");
        }
        List<String> functions = new ArrayList<>();
        Map<String, String> outputs = new TreeMap<>();
        for (Output output : stack.outputs()) {
            outputs.put(output.outputKey(), output.outputValue());
            if (output.outputKey().startsWith(FUNCTION_OUTPUT_PREFIX)) {
                functions.add(output.outputValue());
            }
        }
        String prefix = stackName + "-";
        return new StageInventory(
                stage,
                stackName,
                stack.stackId(),
                stack.stackStatusAsString(),
                functions,
                outputs.getOrDefault(LEDGER_TABLE_OUTPUT, ""),
                outputs.getOrDefault(SCHEDULE_GROUP_OUTPUT, "punctual-" + stage),
                queues(aws, prefix),
                aws.logs().describeLogGroupsPaginator(r -> r.logGroupNamePrefix(prefix)).logGroups().stream()
                        .map(LogGroup::logGroupName)
                        .toList());
    }

    private static Map<String, String> queues(StageAws aws, String prefix) {
        Map<String, String> queues = new TreeMap<>();
        for (ListQueuesResponse page : aws.sqs().listQueuesPaginator(r -> r.queueNamePrefix(prefix))) {
            for (String url : page.queueUrls()) {
                queues.put(url.substring(url.lastIndexOf('/') + 1), url);
            }
        }
        return queues;
    }
}
