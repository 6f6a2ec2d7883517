package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.DueIndex;
import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.DueIndexContract;
import dev.punctual.testing.DynamoDbHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The due index contract against DynamoDB on the emulator: the ledger table's sparse index {@code due}. */
class DynamoDbDueIndexTest extends DueIndexContract {

    private static String table;

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbDueIndexTest.class);
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
    protected DueIndex dueIndex() {
        return new DynamoDbDueIndex(DynamoDbHarness.client(), table);
    }
}
