package dev.punctual.cli.verify;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.StackResourceSummary;

/**
 * What CloudFormation says the stage's stack owns: {@code ListStackResources} of {@code Punctual-<stage>}
 * and of every stack nested in it (the jobs stacks, which hold the jobs' missed-run alarms). Verify finds
 * the stage's queues and alarms here and not by name: CloudFormation names them after their stack, and
 * {@code Punctual-dev-} begins the names of stage {@code dev-eu}'s resources as well as {@code dev}'s.
 *
 * @param stack the stage's stack, {@code Punctual-<stage>}
 * @param resources every resource of it and of its nested stacks (the nested stacks' own entries too)
 */
public record StackResources(String stack, List<Resource> resources) {

    /**
     * One resource as {@code ListStackResources} lists it.
     *
     * @param stack the stack that declares it: the stage's stack's name, or a nested stack's physical id
     * @param physicalId for a queue its URL, for an alarm its name, for a nested stack its ARN
     */
    public record Resource(String stack, String logicalId, String type, String physicalId) {}

    static final String QUEUE = "AWS::SQS::Queue";
    static final String ALARM = "AWS::CloudWatch::Alarm";
    static final String NESTED_STACK = "AWS::CloudFormation::Stack";

    /**
     * The construct id of the scheduler's dead-letter queue in {@code StageStack}; its logical id is
     * this plus CDK's hash ({@code SchedulerDeadLetters662DEC6E}), in the stage's stack itself.
     */
    public static final String SCHEDULER_DEAD_LETTERS = "SchedulerDeadLetters";

    public StackResources {
        resources = List.copyOf(resources);
    }

    public static StackResources read(CloudFormationClient cloudFormation, String stack) {
        List<Resource> found = new ArrayList<>();
        Deque<String> stacks = new ArrayDeque<>(List.of(stack));
        Set<String> read = new HashSet<>();
        while (!stacks.isEmpty()) {
            String next = stacks.pop();
            if (!read.add(next)) {
                continue;
            }
            for (StackResourceSummary summary : cloudFormation
                    .listStackResourcesPaginator(r -> r.stackName(next))
                    .stackResourceSummaries()) {
                // A resource that failed to create, or is not created yet, has no physical id: nothing to read.
                if (summary.physicalResourceId() == null
                        || summary.physicalResourceId().isBlank()) {
                    continue;
                }
                found.add(new Resource(
                        next, summary.logicalResourceId(), summary.resourceType(), summary.physicalResourceId()));
                if (NESTED_STACK.equals(summary.resourceType())) {
                    stacks.add(summary.physicalResourceId());
                }
            }
        }
        return new StackResources(stack, found);
    }

    /** The stage's queues by name, URL as value (every queue of a stage is a dead-letter queue). */
    public Map<String, String> queues() {
        Map<String, String> queues = new TreeMap<>();
        for (Resource resource : resources) {
            if (QUEUE.equals(resource.type())) {
                String url = resource.physicalId();
                queues.put(url.substring(url.lastIndexOf('/') + 1), url);
            }
        }
        return queues;
    }

    /** The stage's alarms' names, its nested stacks' included. */
    public List<String> alarms() {
        return resources.stream()
                .filter(r -> ALARM.equals(r.type()))
                .map(Resource::physicalId)
                .sorted()
                .toList();
    }

    /** The name of the scheduler's dead-letter queue, if the stage's stack has one. */
    public Optional<String> schedulerDeadLetterQueue() {
        return resources.stream()
                .filter(r -> r.stack().equals(stack) && QUEUE.equals(r.type()))
                .filter(r -> String.valueOf(r.logicalId()).startsWith(SCHEDULER_DEAD_LETTERS))
                .map(r -> r.physicalId().substring(r.physicalId().lastIndexOf('/') + 1))
                .findFirst();
    }
}
