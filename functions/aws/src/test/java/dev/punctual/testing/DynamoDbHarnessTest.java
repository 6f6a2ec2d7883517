package dev.punctual.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The harness's backend really speaks the parts of the DynamoDB protocol the ledger depends on:
 * conditional writes that return the stored item, and transactions cancelled with per-action reasons.
 */
class DynamoDbHarnessTest {

    private static final String ONLY_IF_NEW = "attribute_not_exists(pk)";

    private static DynamoDbClient dynamo;
    private static String table;

    @BeforeAll
    static void createTable() {
        dynamo = DynamoDbHarness.client();
        table = TestTables.uniqueName(DynamoDbHarnessTest.class, "harness");
        dynamo.createTable(b -> b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("pk")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build()));
        dynamo.waiter().waitUntilTableExists(b -> b.tableName(table));
    }

    @AfterAll
    static void dropTable() {
        dynamo.deleteTable(b -> b.tableName(table));
    }

    @Test
    void conditionalPut_onNewKey_succeeds_andRepeatFailsCarryingStoredItem() {
        Map<String, AttributeValue> first = item("lease#report", "owner-a");
        dynamo.putItem(conditionalPut(first));

        Map<String, AttributeValue> second = item("lease#report", "owner-b");
        assertThatThrownBy(() -> dynamo.putItem(conditionalPut(second)))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.item())
                                .as("ALL_OLD hands back the item that won, without a second read")
                                .isEqualTo(first));

        assertThat(dynamo.getItem(
                                b -> b.tableName(table).key(key("lease#report")).consistentRead(true))
                        .item())
                .isEqualTo(first);
    }

    @Test
    void transaction_whoseConditionCheckFails_isCancelledWithMatchingReason_andWritesNothing() {
        dynamo.putItem(conditionalPut(item("cursor#report", "owner-a")));

        TransactWriteItem check = TransactWriteItem.builder()
                .conditionCheck(ConditionCheck.builder()
                        .tableName(table)
                        .key(key("cursor#report"))
                        .conditionExpression("#owner = :expected")
                        .expressionAttributeNames(Map.of("#owner", "owner"))
                        .expressionAttributeValues(Map.of(":expected", s("owner-b")))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .build())
                .build();
        TransactWriteItem put = TransactWriteItem.builder()
                .put(Put.builder()
                        .tableName(table)
                        .item(item("run#report#2026-11-29", "owner-b"))
                        .build())
                .build();

        assertThatThrownBy(() -> dynamo.transactWriteItems(TransactWriteItemsRequest.builder()
                        .transactItems(check, put)
                        .build()))
                .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
                    assertThat(e.cancellationReasons())
                            .extracting(CancellationReason::code)
                            .containsExactly("ConditionalCheckFailed", "None");
                    assertThat(e.cancellationReasons().get(0).item()).isEqualTo(item("cursor#report", "owner-a"));
                });

        assertThat(dynamo.getItem(b -> b.tableName(table).key(key("run#report#2026-11-29")))
                        .hasItem())
                .as("a cancelled transaction applies none of its actions")
                .isFalse();
    }

    private PutItemRequest conditionalPut(Map<String, AttributeValue> item) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(item)
                .conditionExpression(ONLY_IF_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();
    }

    private static Map<String, AttributeValue> item(String pk, String owner) {
        return Map.of("pk", s(pk), "owner", s(owner));
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", s(pk));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /**
     * One conditional put is atomic in DynamoDB. Sixteen threads, each with its own client and
     * connections, race the same attribute_not_exists put for many keys: exactly one wins each key.
     * (moto's threaded server had two winners in some rounds; the harness serves one request at a time.)
     */
    @Test
    void conditionalPut_racedBySixteenConcurrentClients_hasExactlyOneWinnerPerKey() throws Exception {
        int threads = 16;
        int keys = 25;
        List<DynamoDbClient> clients = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            clients.add(DynamoDbHarness.newClient(b -> {}));
        }
        ConcurrentHashMap<String, AtomicInteger> wins = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int k = 0; k < keys; k++) {
                String key = "race-" + k;
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> racers = new ArrayList<>();
                for (DynamoDbClient client : clients) {
                    racers.add(pool.submit(() -> {
                        start.await();
                        try {
                            client.putItem(PutItemRequest.builder()
                                    .tableName(table)
                                    .item(Map.of("pk", AttributeValue.fromS(key)))
                                    .conditionExpression(ONLY_IF_NEW)
                                    .build());
                            wins.computeIfAbsent(key, x -> new AtomicInteger()).incrementAndGet();
                        } catch (ConditionalCheckFailedException lost) {
                            // Someone else won: the expected outcome for all but one.
                        }
                        return null;
                    }));
                }
                for (Future<?> racer : racers) {
                    racer.get(1, TimeUnit.MINUTES);
                }
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(DynamoDbClient::close);
        }

        assertThat(wins)
                .hasSize(keys)
                .allSatisfy((key, count) -> assertThat(count.get()).as(key).isEqualTo(1));
    }
}
