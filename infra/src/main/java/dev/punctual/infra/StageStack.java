package dev.punctual.infra;

import dev.punctual.job.FunctionPool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Tags;
import software.amazon.awscdk.services.events.EventBus;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.constructs.Construct;

/** One stage of Punctual: its tables, lifecycle bus, function pools and, per job, a schedule. */
public final class StageStack extends Stack {

    private final LedgerTables tables;
    private final EventBus bus;
    private final Map<String, FunctionPoolConstruct> pools = new LinkedHashMap<>();
    private final Queue schedulerDeadLetters;
    private final Alerting alerting;

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
        this.schedulerDeadLetters = FunctionPoolConstruct.deadLetterQueue(this, "SchedulerDeadLetters");
        this.alerting = new Alerting(this, "Alerting", config);
        observe(config);
        Tags.of(this).add("punctual:stage", config.stage());
    }

    private void observe(StageConfig config) {
        List<ILogGroup> logGroups =
                pools.values().stream().map(p -> (ILogGroup) p.logGroup()).toList();
        List<IQueue> deadLetters = new ArrayList<>();
        deadLetters.add(schedulerDeadLetters);
        alerting.failures();
        alerting.deadLetters(
                "SchedulerDeadLetters", schedulerDeadLetters, "the scheduler gave up delivering an occurrence");
        for (FunctionPoolConstruct pool : pools.values()) {
            deadLetters.add(pool.failureQueue());
            alerting.deadLetters(
                    pool.getNode().getId() + "-AsyncFailures",
                    pool.failureQueue(),
                    "Lambda gave up an invocation of " + pool.getNode().getId() + " after its retries");
        }
        SavedQueries.add(this, config.stage(), logGroups);
        alerting.dashboard(deadLetters, logGroups);
    }

    public Queue schedulerDeadLetters() {
        return schedulerDeadLetters;
    }

    public Alerting alerting() {
        return alerting;
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
