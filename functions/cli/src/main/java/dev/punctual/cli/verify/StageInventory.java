package dev.punctual.cli.verify;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What verify reads of a deployed stage: the stage discovery's record (the stack's outputs: tables,
 * each pool's alias, the schedule group, the log groups) plus the stack's state and the queues
 * CloudFormation named after the stack ({@code VerifyCommand} builds it).
 *
 * @param stackId the stack's ARN (its partition, account and region)
 * @param stackStatus e.g. {@code UPDATE_COMPLETE}
 * @param aliases each pool's {@code live} alias ARN, by pool name
 * @param jobTables the tables the catalog's jobs declare, by declared name (their previews read them)
 * @param queues the stage's queues by name, URL as value (every queue of a stage is a dead-letter queue)
 * @param logGroups the pools' log groups
 * @param savedQueries each saved Logs Insights query's full name ({@code punctual/<stage>/<name>}) by name,
 *     as the stack's outputs name them
 */
public record StageInventory(
        String stage,
        String stackName,
        String stackId,
        String stackStatus,
        Map<String, String> aliases,
        String ledgerTable,
        Map<String, String> jobTables,
        String scheduleGroup,
        Map<String, String> queues,
        List<String> logGroups,
        Map<String, String> savedQueries) {

    /**
     * The construct id of the scheduler's dead-letter queue in {@code StageStack}; CloudFormation names
     * the queue {@code <stack>-SchedulerDeadLetters<hash>-<suffix>}.
     */
    public static final String SCHEDULER_DEAD_LETTERS = "SchedulerDeadLetters";

    public StageInventory {
        aliases = new TreeMap<>(aliases);
        jobTables = new TreeMap<>(jobTables);
        queues = new TreeMap<>(queues);
        logGroups = List.copyOf(logGroups);
        savedQueries = new TreeMap<>(savedQueries);
    }

    /** Everything CloudFormation names for the stack starts with this (alarms, queues). */
    public String namePrefix() {
        return stackName + "-";
    }

    /** Each pool's function name, from its alias ARN ({@code arn:aws:lambda:R:A:function:NAME:live}). */
    public Map<String, String> functionsByPool() {
        Map<String, String> functions = new TreeMap<>();
        aliases.forEach((pool, arn) -> functions.put(pool, arnPart(arn, 6)));
        return functions;
    }

    /** The name of the scheduler's dead-letter queue, if the stage has one. */
    public Optional<String> schedulerDeadLetterQueue() {
        return queues.keySet().stream()
                .filter(name -> name.startsWith(namePrefix() + SCHEDULER_DEAD_LETTERS))
                .findFirst();
    }

    /** The scheduler's dead-letter queue's ARN, in the stack's partition, account and region. */
    public Optional<String> schedulerDeadLetterArn() {
        return schedulerDeadLetterQueue()
                .map(queue -> "arn:" + arnPart(stackId, 1) + ":sqs:" + region() + ":" + account() + ":" + queue);
    }

    /** The stack's account. */
    public String account() {
        return arnPart(stackId, 4);
    }

    /** The stack's region. */
    public String region() {
        return arnPart(stackId, 3);
    }

    private static String arnPart(String arn, int index) {
        String[] parts = arn.split(":");
        return parts.length > index ? parts[index] : "";
    }
}
