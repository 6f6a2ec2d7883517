package dev.punctual.cli.verify;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What verify found of a deployed stage: its stack and the names of the resources the checks read.
 *
 * @param stage the stage name
 * @param stackName {@code Punctual-<stage>}
 * @param stackId the stack's ARN (its account and region)
 * @param stackStatus e.g. {@code UPDATE_COMPLETE}
 * @param functions the pools' function names (the stack's {@code FunctionOf*} outputs)
 * @param ledgerTable the run ledger table
 * @param scheduleGroup the stage's EventBridge Scheduler group
 * @param queues the stage's queues by name (every queue of a stage is a dead-letter queue), URL as value
 * @param logGroups the pools' log groups
 */
public record StageInventory(
        String stage,
        String stackName,
        String stackId,
        String stackStatus,
        List<String> functions,
        String ledgerTable,
        String scheduleGroup,
        Map<String, String> queues,
        List<String> logGroups) {

    /**
     * The construct id of the scheduler's dead-letter queue in {@code StageStack}; CloudFormation names
     * the queue {@code <stack>-SchedulerDeadLetters<hash>-<suffix>}.
     */
    public static final String SCHEDULER_DEAD_LETTERS = "SchedulerDeadLetters";

    public StageInventory {
        functions = List.copyOf(functions);
        queues = Map.copyOf(queues);
        logGroups = List.copyOf(logGroups);
    }

    /** Everything CloudFormation names for the stack starts with this (alarms, queues, log groups). */
    public String namePrefix() {
        return stackName + "-";
    }

    /** The name of the scheduler's dead-letter queue, if the stage has one. */
    public Optional<String> schedulerDeadLetterQueue() {
        return queues.keySet().stream()
                .filter(name -> name.startsWith(namePrefix() + SCHEDULER_DEAD_LETTERS))
                .findFirst();
    }

    /** The stack's account: the fifth field of its ARN. */
    public String account() {
        return arnField(4);
    }

    /** The stack's region: the fourth field of its ARN. */
    public String region() {
        return arnField(3);
    }

    private String arnField(int index) {
        String[] parts = stackId.split(":", 6);
        return parts.length > index ? parts[index] : "";
    }
}
