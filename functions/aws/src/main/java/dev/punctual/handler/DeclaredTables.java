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
        List<AttributeDefinition> attributes = new ArrayList<>(List.of(attribute(table.partitionKey())));
        List<KeySchemaElement> keys = new ArrayList<>(List.of(key(table.partitionKey(), KeyType.HASH)));
        table.sortKeyIfAny().ifPresent(sort -> {
            attributes.add(attribute(sort));
            keys.add(key(sort, KeyType.RANGE));
        });
        List<GlobalSecondaryIndex> indexes = new ArrayList<>();
        for (JobTable.Index index : table.indexes()) {
            indexes.add(index(index));
            index.keys().forEach(k -> defineOnce(attributes, k));
        }
        dynamo.createTable(b -> {
            b.tableName(name)
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(attributes)
                    .keySchema(keys);
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
            GlobalSecondaryIndex created = index(index);
            List<AttributeDefinition> attributes = new ArrayList<>();
            index.keys().forEach(k -> defineOnce(attributes, k));
            GlobalSecondaryIndexUpdate update = GlobalSecondaryIndexUpdate.builder()
                    .create(c -> c.indexName(created.indexName())
                            .keySchema(created.keySchema())
                            .projection(created.projection()))
                    .build();
            dynamo.updateTable(
                    b -> b.tableName(name).attributeDefinitions(attributes).globalSecondaryIndexUpdates(update));
            dynamo.waiter().waitUntilTableExists(b -> b.tableName(name));
        }
    }

    private static GlobalSecondaryIndex index(JobTable.Index index) {
        List<KeySchemaElement> keys = new ArrayList<>(List.of(key(index.partitionKey(), KeyType.HASH)));
        index.sortKeyIfAny().ifPresent(sort -> keys.add(key(sort, KeyType.RANGE)));
        return GlobalSecondaryIndex.builder()
                .indexName(index.name())
                .keySchema(keys)
                .projection(p -> p.projectionType(ProjectionType.ALL))
                .build();
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
