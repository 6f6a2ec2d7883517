package dev.punctual.infra;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.amazon.awscdk.services.scheduler.IScheduleGroup;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sqs.IQueue;

/**
 * What the operator's policy and the stage's outputs are built from: the resources of a stage an
 * operator works with, as interfaces, so each construct can be tested on a bare stack with only these.
 *
 * @param stage the stage's name
 * @param ledger the run ledger table
 * @param jobTables the tables the catalog's jobs declare, by declared name
 * @param schedules the schedule group holding every schedule of the stage
 * @param schedulerDeadLetters where the scheduler puts occurrences it could not deliver
 * @param alarmTopic the topic the stage's alarms notify
 * @param alertDeadLetters where EventBridge puts notices it could not deliver to the topic
 * @param pools each function pool, by pool name, in catalog order
 */
record OperatedStage(
        String stage,
        ITable ledger,
        Map<String, ITable> jobTables,
        IScheduleGroup schedules,
        IQueue schedulerDeadLetters,
        ITopic alarmTopic,
        IQueue alertDeadLetters,
        Map<String, Pool> pools) {

    OperatedStage {
        Objects.requireNonNull(stage, "stage");
        jobTables = Collections.unmodifiableMap(new LinkedHashMap<>(jobTables));
        pools = Collections.unmodifiableMap(new LinkedHashMap<>(pools));
    }

    /**
     * One function pool as an operator sees it.
     *
     * @param alias the {@code live} alias run and replay invoke
     * @param function the function itself (verify reads its resource policy and URLs, which the alias
     *     does not show)
     * @param logGroup where its lines go
     * @param failureQueue the on-failure destination of Lambda's async retries
     */
    record Pool(IFunction alias, IFunction function, ILogGroup logGroup, IQueue failureQueue) {}

    static OperatedStage of(StageStack stage) {
        Map<String, Pool> pools = new LinkedHashMap<>();
        stage.pools()
                .forEach((name, pool) ->
                        pools.put(name, new Pool(pool.alias(), pool.function(), pool.logGroup(), pool.failureQueue())));
        return new OperatedStage(
                stage.config().stage(),
                stage.tables().ledger(),
                new LinkedHashMap<>(stage.tables().jobTables()),
                stage.scheduleGroup(),
                stage.schedulerDeadLetters(),
                stage.alerting().topic(),
                stage.alertDeadLetters(),
                pools);
    }
}
