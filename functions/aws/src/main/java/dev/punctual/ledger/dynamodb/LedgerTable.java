package dev.punctual.ledger.dynamodb;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The table the ledger expects: {@code pk} (S) hash key, {@code sk} (S) range key, TTL on {@code ttl}
 * (epoch seconds), and, for a catalog with a per-entity job, the sparse due index {@link #DUE_INDEX}
 * (decision 0031: {@code dueBucket} (S) hash key, {@code nextDue} (N) range key, keys only). The CDK
 * stack creates exactly this in each stage; this method is for tests and local tools, and always adds
 * the index (a table without entities keeps it empty: no item has its key).
 */
public final class LedgerTable {

    public static final String PARTITION_KEY = Attr.PK;
    public static final String SORT_KEY = Attr.SK;
    public static final String TTL_ATTRIBUTE = Attr.TTL;
    public static final String DUE_INDEX = "due";
    public static final String DUE_PARTITION_KEY = Attr.DUE_BUCKET;
    public static final String DUE_SORT_KEY = Attr.NEXT_DUE;

    private LedgerTable() {}

    /**
     * Creates the table unless it exists, for the emulator paths (tests, demo, the CLI with
     * --endpoint). Several processes may start at once against a fresh emulator: the ones that lose
     * the race to create it wait for the winner's table instead of failing.
     */
    public static void createIfMissing(DynamoDbClient dynamo, String table) {
        try {
            dynamo.describeTable(b -> b.tableName(table));
        } catch (ResourceNotFoundException missing) {
            try {
                create(dynamo, table);
            } catch (ResourceInUseException createdByAnother) {
                dynamo.waiter().waitUntilTableExists(b -> b.tableName(table));
            }
        }
    }

    public static void create(DynamoDbClient dynamo, String table) {
        dynamo.createTable(b -> b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        stringAttribute(PARTITION_KEY),
                        stringAttribute(SORT_KEY),
                        stringAttribute(DUE_PARTITION_KEY),
                        AttributeDefinition.builder()
                                .attributeName(DUE_SORT_KEY)
                                .attributeType(ScalarAttributeType.N)
                                .build())
                .keySchema(key(PARTITION_KEY, KeyType.HASH), key(SORT_KEY, KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName(DUE_INDEX)
                        .keySchema(key(DUE_PARTITION_KEY, KeyType.HASH), key(DUE_SORT_KEY, KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                        .build()));
        dynamo.waiter().waitUntilTableExists(b -> b.tableName(table));
        dynamo.updateTimeToLive(b -> b.tableName(table)
                .timeToLiveSpecification(t -> t.attributeName(TTL_ATTRIBUTE).enabled(true)));
    }

    private static AttributeDefinition stringAttribute(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
