package dev.punctual.handler;

import dev.punctual.job.JobTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Creates a table the catalog's jobs declare ({@link JobTable}) as the CDK app does in a stage: its
 * declared keys, on demand, TTL when declared. For the emulator paths only (tests, the demo, the CLI
 * with --endpoint); in AWS the stage's stack owns the tables.
 */
public final class DeclaredTables {

    /** Every attribute, as the CDK app projects them: a job reads the same items through an index. */
    private static final Projection ALL_ATTRIBUTES =
            Projection.builder().projectionType(ProjectionType.ALL).build();

    private DeclaredTables() {}

    /**
     * Creates the table under {@code name} unless it exists, and adds the declared indexes an existing
     * table lacks (one per update, as DynamoDB requires); a process that loses the race waits for it.
     */
    public static void createIfMissing(DynamoDbClient dynamo, JobTable table, String name) {
        try {
            TableDescription existing =
                    dynamo.describeTable(b -> b.tableName(name)).table();
            addMissingIndexes(dynamo, table, name, existing);
        } catch (ResourceNotFoundException missing) {
            try {
                create(dynamo, table, name);
            } catch (ResourceInUseException createdByAnother) {
                dynamo.waiter().waitUntilTableExists(b -> b.tableName(name));
            }
        }
    }

    public static void create(DynamoDbClient dynamo, JobTable table, String name) {
        List<AttributeDefinition> attributes = new ArrayList<>();
        table.keys().forEach(k -> defineOnce(attributes, k));
        List<GlobalSecondaryIndex> indexes = new ArrayList<>();
        for (JobTable.Index index : table.indexes()) {
            indexes.add(GlobalSecondaryIndex.builder()
                    .indexName(index.name())
                    .keySchema(keySchema(index.keys()))
                    .projection(ALL_ATTRIBUTES)
                    .build());
            index.keys().forEach(k -> defineOnce(attributes, k));
        }
        dynamo.createTable(b -> {
            b.tableName(name)
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(attributes)
                    .keySchema(keySchema(table.keys()));
            if (!indexes.isEmpty()) { // an empty list is refused by DynamoDB
                b.globalSecondaryIndexes(indexes);
            }
        });
        dynamo.waiter().waitUntilTableExists(b -> b.tableName(name));
        table.ttlAttributeIfAny()
                .ifPresent(ttl -> dynamo.updateTimeToLive(b -> b.tableName(name)
                        .timeToLiveSpecification(t -> t.attributeName(ttl).enabled(true))));
    }

    private static void addMissingIndexes(
            DynamoDbClient dynamo, JobTable table, String name, TableDescription existing) {
        Set<String> present = existing.globalSecondaryIndexes().stream()
                .map(GlobalSecondaryIndexDescription::indexName)
                .collect(Collectors.toSet());
        for (JobTable.Index index : table.indexes()) {
            if (present.contains(index.name())) {
                continue;
            }
            List<AttributeDefinition> attributes =
                    index.keys().stream().map(DeclaredTables::attribute).toList();
            GlobalSecondaryIndexUpdate update = GlobalSecondaryIndexUpdate.builder()
                    .create(c -> c.indexName(index.name())
                            .keySchema(keySchema(index.keys()))
                            .projection(ALL_ATTRIBUTES))
                    .build();
            dynamo.updateTable(
                    b -> b.tableName(name).attributeDefinitions(attributes).globalSecondaryIndexUpdates(update));
            dynamo.waiter().waitUntilTableExists(b -> b.tableName(name));
        }
    }

    /** The partition key as the hash key, a sort key as the range key. */
    private static List<KeySchemaElement> keySchema(List<JobTable.Key> keys) {
        List<KeySchemaElement> schema = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            schema.add(key(keys.get(i), i == 0 ? KeyType.HASH : KeyType.RANGE));
        }
        return schema;
    }

    /** DynamoDB refuses an attribute defined twice; an index may reuse a table key (JobTable checks the types agree). */
    private static void defineOnce(List<AttributeDefinition> attributes, JobTable.Key key) {
        if (attributes.stream().noneMatch(a -> a.attributeName().equals(key.name()))) {
            attributes.add(attribute(key));
        }
    }

    private static AttributeDefinition attribute(JobTable.Key key) {
        return AttributeDefinition.builder()
                .attributeName(key.name())
                .attributeType(key.type().code())
                .build();
    }

    private static KeySchemaElement key(JobTable.Key key, KeyType type) {
        return KeySchemaElement.builder()
                .attributeName(key.name())
                .keyType(type)
                .build();
    }
}
