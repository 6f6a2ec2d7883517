package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.GroupCapacityContract;
import dev.punctual.testing.DynamoDbHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The contract of a lock group admitting N runners (decision 0051) against DynamoDB on the emulator. */
class DynamoDbGroupCapacityTest extends GroupCapacityContract {

    private static String table;

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbGroupCapacityTest.class);
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
    protected int raceRounds() {
        return 8;
    }
}
