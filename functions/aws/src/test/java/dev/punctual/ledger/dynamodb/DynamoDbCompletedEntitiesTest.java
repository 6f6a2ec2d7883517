package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.CompletedEntitiesContract;
import dev.punctual.testing.DynamoDbHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The completed entities contract (decision 0047) against DynamoDB on the emulator: the {@code done#}
 * notes put by the completion transaction, read with a Query per shard.
 */
class DynamoDbCompletedEntitiesTest extends CompletedEntitiesContract {

    private static String table;

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbCompletedEntitiesTest.class);
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
