package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.ApprovalContract;
import dev.punctual.testing.DynamoDbHarness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The approval contract (decision 0041) against DynamoDB on the emulator (moto, or whatever the harness chose). */
class DynamoDbApprovalTest extends ApprovalContract {

    private static String table;
    private static final List<DynamoDbClient> extraClients = new ArrayList<>();

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbApprovalTest.class);
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

    /** The races' own client, so its connections are not shared with the test's reads. */
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
