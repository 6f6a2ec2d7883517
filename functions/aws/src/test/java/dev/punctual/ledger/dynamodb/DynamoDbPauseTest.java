package dev.punctual.ledger.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.PauseContract;
import dev.punctual.ledger.testkit.SequentialTokens;
import dev.punctual.testing.DynamoDbHarness;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/** The pause contract (decision 0040) against DynamoDB on the emulator (moto, or whatever the harness chose). */
class DynamoDbPauseTest extends PauseContract {

    private static String table;

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbPauseTest.class);
    }

    @AfterAll
    static void dropTable() {
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    @Override
    protected LedgerStore store() {
        return new DynamoDbLedgerStore(DynamoDbHarness.client(), table);
    }

    @Test
    void pausesOf150LockItems_areTwoEventuallyConsistentBatchGetItems_projectedToTheMark() {
        List<SdkRequest> sent = new CopyOnWriteArrayList<>();
        ExecutionInterceptor recording = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                sent.add(context.request());
            }
        };
        List<String> ids = IntStream.range(0, 150).mapToObj(i -> "batch" + i).toList();
        try (DynamoDbClient metered =
                DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(recording)))) {
            RunLedger ledger = new LedgerEngine(
                    new DynamoDbLedgerStore(metered, table),
                    clock,
                    new SequentialTokens("batch"),
                    Retention.DEFAULT,
                    clock::advance);

            assertThat(ledger.pauses(ids)).isEmpty();
        }

        assertThat(sent).hasSize(2).allSatisfy(r -> assertThat(r).isInstanceOf(BatchGetItemRequest.class));
        List<KeysAndAttributes> asked = sent.stream()
                .map(r -> ((BatchGetItemRequest) r).requestItems().get(table))
                .toList();
        assertThat(asked.stream().map(k -> k.keys().size())).containsExactly(100, 50);
        assertThat(asked).allSatisfy(k -> {
            assertThat(k.consistentRead()).isFalse();
            assertThat(k.projectionExpression()).isEqualTo(Expressions.PAUSE_MARK_PROJECTION);
        });
    }
}
