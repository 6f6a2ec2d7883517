package dev.punctual.cli.verify;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What verify reads of a deployed stage: the stage discovery's record (the stack's outputs: tables,
 * each pool's alias, the schedule group, the log groups) plus the stack's state ({@code VerifyCommand}
 * builds it). The stack's queues and alarms are read by the checks that need them ({@link StackResources}).
 *
 * @param stackId the stack's ARN (its partition, account and region)
 * @param stackStatus e.g. {@code UPDATE_COMPLETE}
 * @param aliases each pool's {@code live} alias ARN, by pool name
 * @param jobTables the tables the catalog's jobs declare, by declared name
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
        List<String> logGroups,
        Map<String, String> savedQueries) {

    public StageInventory {
        aliases = new TreeMap<>(aliases);
        jobTables = new TreeMap<>(jobTables);
        logGroups = List.copyOf(logGroups);
        savedQueries = new TreeMap<>(savedQueries);
    }

    /** Each pool's function name, from its alias ARN ({@code arn:aws:lambda:R:A:function:NAME:live}). */
    public Map<String, String> functionsByPool() {
        Map<String, String> functions = new TreeMap<>();
        aliases.forEach((pool, arn) -> functions.put(pool, arnPart(arn, 6)));
        return functions;
    }

    /** A queue's ARN, in the stack's partition, account and region. */
    public String queueArn(String queue) {
        return "arn:" + arnPart(stackId, 1) + ":sqs:" + region() + ":" + account() + ":" + queue;
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
