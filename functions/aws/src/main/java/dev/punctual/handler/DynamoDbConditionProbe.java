package dev.punctual.handler;

import dev.punctual.PunctualException;
import dev.punctual.job.MaintenanceCondition;
import dev.punctual.runtime.ConditionProbe;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * A maintenance condition's one query (decision 0036, 5): a {@code Query} of one partition of the
 * declared table (or index), {@code Limit 1}, projecting the partition key only, so an evaluation reads at
 * most one item, one read request unit, whatever the partition holds. The table's name comes from the
 * variable its declaration names, as a job's does.
 */
final class DynamoDbConditionProbe implements ConditionProbe {

    /** The partition: the only key condition a Query must have. */
    static final String IN_PARTITION = "#pk = :pk";

    /** Narrowed to sort keys with the prefix: still a key condition, so still one item read with Limit 1. */
    static final String IN_PARTITION_WITH_PREFIX = IN_PARTITION + " AND begins_with(#sk, :prefix)";

    /** The key alone: the item's other attributes are not the condition's business, nor worth reading. */
    static final String KEY_ONLY = "#pk";

    /**
     * A condition is asked before an occurrence's claim, inside the invocation's time: a slow answer is
     * no answer (MAINTENANCE_UNKNOWN), never a job started late.
     */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final DynamoDbClient dynamo;
    private final Function<String, String> environment;

    DynamoDbConditionProbe(DynamoDbClient dynamo, Function<String, String> environment) {
        this.dynamo = dynamo;
        this.environment = environment;
    }

    @Override
    public boolean findsAnItem(MaintenanceCondition condition) {
        String variable = condition.table().environmentVariable();
        String tableName = environment.apply(variable);
        if (tableName == null || tableName.isBlank()) {
            throw new PunctualException("table " + condition.table().name() + ": its name variable " + variable
                    + " is not set in this function (deploy the stage again: every pool reads a condition's table)");
        }
        try {
            return dynamo.query(query(condition, tableName)).count() > 0;
        } catch (SdkException unanswered) {
            throw new PunctualException(
                    unanswered.getClass().getSimpleName() + " querying " + tableName + ": " + unanswered.getMessage(),
                    unanswered);
        }
    }

    static QueryRequest query(MaintenanceCondition condition, String tableName) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#pk", condition.partitionKey().name());
        values.put(
                ":pk",
                switch (condition.partitionKey().type()) {
                    case NUMBER -> AttributeValue.fromN(condition.partitionKeyValue());
                    default -> AttributeValue.fromS(condition.partitionKeyValue());
                });
        condition.sortKeyPrefix().ifPresent(prefix -> {
            names.put("#sk", condition.sortKey().orElseThrow().name());
            values.put(":prefix", AttributeValue.fromS(prefix));
        });
        return QueryRequest.builder()
                .tableName(tableName)
                .indexName(condition.index().orElse(null))
                .keyConditionExpression(condition.sortKeyPrefix().isPresent() ? IN_PARTITION_WITH_PREFIX : IN_PARTITION)
                .projectionExpression(KEY_ONLY)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .limit(1)
                .overrideConfiguration(o -> o.apiCallTimeout(TIMEOUT))
                .build();
    }
}
