package dev.punctual.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The demo domain the example jobs work on: members, reservations, daily reports and an outbox, in one
 * table keyed {@code pk}/{@code sk}. Each kind of item lives in one partition so a job can query it
 * without a scan; a real domain would shard hot partitions, which is beside the point here.
 */
public final class DemoTable {

    public static final String MEMBERS = "members";
    public static final String RESERVATIONS = "reservations";
    public static final String REPORTS = "reports";
    public static final String OUTBOX = "outbox";

    /**
     * Guards every example write with the run's fence: a runner whose lease was taken over holds a lower
     * fence than the one already stored, so its late write is refused instead of undoing newer work.
     */
    public static final String FENCE_GUARD = "attribute_not_exists(fence) OR fence <= :fence";

    private final DynamoDbClient dynamo;
    private final String table;

    public DemoTable(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    public DynamoDbClient dynamo() {
        return dynamo;
    }

    public String table() {
        return table;
    }

    /** Every item of one partition, following pagination. */
    public List<Map<String, AttributeValue>> all(String partition) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder request = QueryRequest.builder()
                    .tableName(table)
                    .keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(Map.of(":pk", s(partition)))
                    .consistentRead(true);
            if (start != null) {
                request.exclusiveStartKey(start);
            }
            QueryResponse page = dynamo.query(request.build());
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    /**
     * Runs one conditional write; false when its condition refused it (the item already changed, or a
     * newer fence wrote it), which the example jobs count as "nothing to do", never as a failure.
     */
    public static boolean applied(Runnable conditionalWrite) {
        try {
            conditionalWrite.run();
            return true;
        } catch (ConditionalCheckFailedException conditionRefused) {
            return false;
        }
    }

    public static Map<String, AttributeValue> key(String partition, String sortKey) {
        return Map.of("pk", s(partition), "sk", s(sortKey));
    }

    public static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    public static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    public static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0 : Long.parseLong(value.n());
    }

    public static String text(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }
}
