package dev.punctual.cli.stage;

import dev.punctual.cli.input.OperatorInputException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A deployed stage as its stack's outputs describe it ({@link StageDiscovery#find}): where its tables,
 * functions, schedules, logs and saved queries are. Maps are keyed by pool name (aliases, log groups)
 * or saved query name ({@code failures}, {@code job-timeline}, ...).
 *
 * @param stage the stage's name
 * @param stackName its CloudFormation stack, {@code Punctual-<stage>}
 * @param region the region the stack was found in
 * @param ledgerTable the run ledger table
 * @param jobTables each table the catalog's jobs declare, by declared name (outputs {@code Table<name>})
 * @param scheduleGroup the EventBridge Scheduler group of its schedules
 * @param poolAliases each pool's {@code live} alias ARN, by pool name: what {@code run}/{@code replay} invoke
 * @param logGroups each pool's log group name, by pool name
 * @param savedQueries each saved Logs Insights query's full name ({@code punctual/<stage>/<name>}), by name
 * @param operatorPolicyArn the stage's operator policy, absent on a stage deployed before it existed
 */
public record DeployedStage(
        String stage,
        String stackName,
        String region,
        String ledgerTable,
        SortedMap<String, String> jobTables,
        String scheduleGroup,
        SortedMap<String, String> poolAliases,
        SortedMap<String, String> logGroups,
        SortedMap<String, String> savedQueries,
        Optional<String> operatorPolicyArn) {

    public DeployedStage {
        jobTables = new TreeMap<>(jobTables);
        poolAliases = new TreeMap<>(poolAliases);
        logGroups = new TreeMap<>(logGroups);
        savedQueries = new TreeMap<>(savedQueries);
    }

    /**
     * The alias ARN to invoke for a pool; a pool the stage does not deploy exits 2 naming those it has
     * (the CLI's catalog is newer or older than the deployed one).
     */
    public String aliasOf(String pool) {
        String alias = poolAliases.get(pool);
        if (alias == null) {
            throw new OperatorInputException("pool: '" + pool + "' is not deployed in stage " + stage
                    + " (stack " + stackName + "); accepted: " + String.join(", ", poolAliases.keySet())
                    + " (deploy the catalog this CLI was built with, or use the CLI built with the deployed one)");
        }
        return alias;
    }

    /** Every log group of the stage, in pool order: what the saved queries read. */
    public List<String> allLogGroups() {
        return List.copyOf(logGroups.values());
    }

    /** The outputs as a map, for {@code --output json}. */
    public Map<String, Object> describe() {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("stage", stage);
        out.put("stack", stackName);
        out.put("region", region);
        out.put("ledger_table", ledgerTable);
        out.put("job_tables", jobTables);
        out.put("schedule_group", scheduleGroup);
        out.put("pool_aliases", poolAliases);
        out.put("log_groups", logGroups);
        out.put("saved_queries", savedQueries);
        out.put("operator_policy", operatorPolicyArn.orElse(null));
        return out;
    }
}
