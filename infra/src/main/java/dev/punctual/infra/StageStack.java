package dev.punctual.infra;

import dev.punctual.job.FunctionPool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Tags;
import software.amazon.awscdk.services.events.EventBus;
import software.amazon.awscdk.services.lambda.Code;
import software.constructs.Construct;

/** One stage of Punctual: its tables, lifecycle bus, function pools and, per job, a schedule. */
public final class StageStack extends Stack {

    private final LedgerTables tables;
    private final EventBus bus;
    private final Map<String, FunctionPoolConstruct> pools = new LinkedHashMap<>();

    public StageStack(
            Construct scope, String id, StackProps props, StageConfig config, List<FunctionPool> poolSpecs, Code code) {
        super(scope, id, props);
        this.tables = new LedgerTables(this, "Tables", config);
        this.bus = EventBus.Builder.create(this, "LifecycleBus")
                .eventBusName("punctual-" + config.stage())
                .description("Punctual lifecycle events (see docs/events.md)")
                .build();
        for (FunctionPool pool : poolSpecs) {
            pools.put(
                    pool.name(),
                    new FunctionPoolConstruct(this, "Pool-" + pool.name(), config, pool, code, tables, bus));
        }
        Tags.of(this).add("punctual:stage", config.stage());
    }

    public LedgerTables tables() {
        return tables;
    }

    public EventBus bus() {
        return bus;
    }

    public Map<String, FunctionPoolConstruct> pools() {
        return pools;
    }
}
