package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobTable;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** A declared table created on the emulator as the CDK app creates it in a stage. */
class DeclaredTablesTest {

    private final DynamoDbClient dynamo = DynamoDbHarness.client();
    private final String name = TestTables.uniqueName(DeclaredTablesTest.class, "orders");

    @AfterEach
    void dropTable() {
        try {
            dynamo.deleteTable(b -> b.tableName(name));
        } catch (ResourceNotFoundException neverCreated) {
            // the test failed before creating it; its own failure is the one to read
        }
    }

    @Test
    void aTableWithGlobalIndexes_isCreatedWithThem_andAJobCanQueryAnIndexWhoseKeyReusesTheTablesSortKey() {
        JobTable orders = JobTable.builder("Orders")
                .environmentVariable("ORDERS_TABLE")
                .partitionKey("orderId", JobTable.AttributeType.STRING)
                .sortKey("placedAt", JobTable.AttributeType.NUMBER)
                .globalIndex(
                        "byCustomer",
                        "customerId",
                        JobTable.AttributeType.STRING,
                        "placedAt",
                        JobTable.AttributeType.NUMBER)
                .globalIndex("byStatus", "status", JobTable.AttributeType.STRING)
                .actions("dynamodb:PutItem", "dynamodb:Query")
                .build();

        DeclaredTables.create(dynamo, orders, name);
        dynamo.putItem(b -> b.tableName(name)
                .item(Map.of(
                        "orderId", AttributeValue.fromS("o-1"),
                        "placedAt", AttributeValue.fromN("1764500000"),
                        "customerId", AttributeValue.fromS("c-7"),
                        "status", AttributeValue.fromS("open"))));

        TableDescription table = dynamo.describeTable(b -> b.tableName(name)).table();
        assertThat(table.globalSecondaryIndexes())
                .extracting(i -> i.indexName() + ":" + i.projection().projectionTypeAsString())
                .containsExactlyInAnyOrder("byCustomer:ALL", "byStatus:ALL");
        assertThat(table.attributeDefinitions())
                .extracting(a -> a.attributeName())
                .containsExactlyInAnyOrder("orderId", "placedAt", "customerId", "status");
        assertThat(dynamo.query(b -> b.tableName(name)
                                .indexName("byCustomer")
                                .keyConditionExpression("customerId = :c")
                                .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("c-7"))))
                        .items())
                .singleElement()
                .satisfies(item -> assertThat(item).containsEntry("status", AttributeValue.fromS("open")));
    }

    @Test
    void createIfMissing_ofATableCreatedBeforeItsIndexWasDeclared_addsTheIndex() {
        JobTable.Builder declaration = JobTable.builder("Orders")
                .environmentVariable("ORDERS_TABLE")
                .partitionKey("orderId", JobTable.AttributeType.STRING)
                .actions("dynamodb:PutItem", "dynamodb:Query");
        DeclaredTables.createIfMissing(dynamo, declaration.build(), name);
        dynamo.putItem(b -> b.tableName(name)
                .item(Map.of("orderId", AttributeValue.fromS("o-1"), "customerId", AttributeValue.fromS("c-7"))));

        DeclaredTables.createIfMissing(
                dynamo,
                declaration
                        .globalIndex("byCustomer", "customerId", JobTable.AttributeType.STRING)
                        .build(),
                name);

        assertThat(dynamo.describeTable(b -> b.tableName(name)).table().globalSecondaryIndexes())
                .extracting(i -> i.indexName())
                .containsExactly("byCustomer");
        assertThat(dynamo.query(b -> b.tableName(name)
                                .indexName("byCustomer")
                                .keyConditionExpression("customerId = :c")
                                .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("c-7"))))
                        .items())
                .extracting(item -> item.get("orderId").s())
                .containsExactly("o-1");
    }
}
