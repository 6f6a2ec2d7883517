package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.FaultPlan;
import dev.punctual.ledger.testkit.SkipContract;
import dev.punctual.testing.DynamoDbHarness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The contract against DynamoDB on the emulator (moto, or whatever the harness chose). */
class DynamoDbRunLedgerTest extends SkipContract {

    private static String table;
    private static final List<DynamoDbClient> extraClients = new ArrayList<>();

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbRunLedgerTest.class);
    }

    @AfterAll
    static void dropTable() {
        extraClients.forEach(DynamoDbClient::close);
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    @Override
    protected LedgerStore store() {
        return new DynamoDbLedgerStore(DynamoDbHarness.client(), table);
    }

    @Override
    protected Stores faultyStores(FaultPlan plan) {
        DynamoDbClient faulty = LedgerTables.clientWith(new FaultInterceptor(plan));
        extraClients.add(faulty);
        return new Stores(new DynamoDbLedgerStore(faulty, table), store());
    }

    /**
     * Racing threads share a client of their own and send truly concurrent requests: the harness's moto
     * serves one request at a time (moto_launcher.py), so each request is atomic as one DynamoDB item
     * write is, and every interleaving between requests is the ledger's own.
     */
    @Override
    protected LedgerStore concurrentStore() {
        DynamoDbClient concurrent = DynamoDbHarness.newClient(b -> {});
        extraClients.add(concurrent);
        return new DynamoDbLedgerStore(concurrent, table);
    }

    @Override
    protected int rounds() {
        return Integer.getInteger("punctual.raceRounds", 20);
    }
}
