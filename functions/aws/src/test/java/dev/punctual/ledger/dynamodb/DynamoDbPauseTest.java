package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.PauseContract;
import dev.punctual.testing.DynamoDbHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

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
}
