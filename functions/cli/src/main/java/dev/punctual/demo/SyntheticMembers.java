package dev.punctual.demo;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The synthetic member data the demo's data tool loads and resets, in the examples' partition for it
 * ({@link ExampleDomain#SYNTHETIC_MEMBERS}): while any is there, the examples' maintenance condition holds
 * and every job skips (decision 0036, 5).
 */
final class SyntheticMembers {

    private final DynamoDbClient dynamo;
    private final String table;

    SyntheticMembers(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /** Loads {@code count} synthetic members, as the data tool does. */
    int load(int count) {
        for (int i = 1; i <= count; i++) {
            String id = String.format("sm-%03d", i);
            dynamo.putItem(b -> b.tableName(table)
                    .item(Map.of(
                            "pk", AttributeValue.fromS(ExampleDomain.SYNTHETIC_MEMBERS),
                            "sk", AttributeValue.fromS(id))));
        }
        return count;
    }

    /** Deletes every synthetic member: the data set reset; returns how many there were. */
    int reset() {
        List<Map<String, AttributeValue>> keys = dynamo
                .queryPaginator(b -> b.tableName(table)
                        .keyConditionExpression("pk = :pk")
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(ExampleDomain.SYNTHETIC_MEMBERS)))
                        .projectionExpression("pk, sk"))
                .items()
                .stream()
                .toList();
        keys.forEach(key -> dynamo.deleteItem(b -> b.tableName(table).key(key)));
        return keys.size();
    }
}
