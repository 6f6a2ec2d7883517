package dev.punctual.ledger.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Twelve CLIs started at once against a fresh emulator all find their table; none dies. */
class LedgerTableCreationTest {

    @Test
    void createIfMissing_calledByTwelveClientsAtOnce_createsTheTableOnce_andEveryCallerReturns() throws Exception {
        String table = TestTables.uniqueName(LedgerTableCreationTest.class, "race");
        int callers = 12;
        List<DynamoDbClient> clients = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            clients.add(DynamoDbHarness.newClient(b -> {}));
        }
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CyclicBarrier start = new CyclicBarrier(callers);
        List<Future<?>> calls = new ArrayList<>();
        try {
            for (DynamoDbClient client : clients) {
                calls.add(pool.submit(() -> {
                    start.await();
                    LedgerTable.createIfMissing(client, table);
                    return null;
                }));
            }
            for (Future<?> call : calls) {
                call.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(DynamoDbClient::close);
        }

        assertThat(DynamoDbHarness.client()
                        .describeTable(b -> b.tableName(table))
                        .table()
                        .tableStatus())
                .isEqualTo(TableStatus.ACTIVE);
    }
}
