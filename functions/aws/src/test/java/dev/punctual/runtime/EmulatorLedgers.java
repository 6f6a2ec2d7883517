package dev.punctual.runtime;

import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.util.UUID;

/** The DynamoDB ledger on the harness's emulator, for the test kit's runtime contracts. */
final class EmulatorLedgers {

    private EmulatorLedgers() {}

    /** A fresh table per fixture; the clock is also the sleeper, as on the in-memory ledger. */
    static RunLedger create(Class<?> testClass, MutableClock clock) {
        String table = TestTables.uniqueName(testClass, "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        return DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                table,
                clock,
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                clock::advance);
    }
}
