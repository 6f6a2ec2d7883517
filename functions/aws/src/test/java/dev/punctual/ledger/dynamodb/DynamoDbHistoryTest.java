package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.HistoryContract;
import dev.punctual.testing.DynamoDbHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The history contract against DynamoDB on the emulator: one Query of the run partition, read backwards. */
class DynamoDbHistoryTest extends HistoryContract {

    private static String table;

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbHistoryTest.class);
    }

    @AfterAll
    static void dropTable() {
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    @Override
    protected LedgerStore store() {
        return new DynamoDbLedgerStore(DynamoDbHarness.client(), table);
    }

    @Override
    protected LedgerStore store(int page) {
        return new DynamoDbLedgerStore(DynamoDbHarness.client(), table, page);
    }
}
