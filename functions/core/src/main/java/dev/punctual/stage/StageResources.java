package dev.punctual.stage;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The names of the AWS resources a function of a stage works with. The CDK app writes them into the
 * function's environment and the handler reads them back, through the same constants.
 *
 * <p>Tables a team's jobs use are not here: the catalog declares them ({@code JobTable}), each with its
 * own variable.
 *
 * @param ledgerTable the run ledger table
 * @param eventBus the bus lifecycle events go to
 * @param pool the function pool this function is
 */
public record StageResources(String ledgerTable, String eventBus, String pool) {

    public static final String LEDGER_TABLE = "PUNCTUAL_LEDGER_TABLE";
    public static final String EVENT_BUS = "PUNCTUAL_EVENT_BUS";
    public static final String POOL = "PUNCTUAL_POOL";

    public StageResources {
        Objects.requireNonNull(ledgerTable, "ledgerTable");
        Objects.requireNonNull(eventBus, "eventBus");
        Objects.requireNonNull(pool, "pool");
    }

    public static StageResources fromEnvironment(Map<String, String> env) {
        return new StageResources(required(env, LEDGER_TABLE), required(env, EVENT_BUS), required(env, POOL));
    }

    public Map<String, String> toEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(LEDGER_TABLE, ledgerTable);
        env.put(EVENT_BUS, eventBus);
        env.put(POOL, pool);
        return env;
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new StageConfigException(name, String.valueOf(value), "the resource name the CDK app sets");
        }
        return value;
    }
}
