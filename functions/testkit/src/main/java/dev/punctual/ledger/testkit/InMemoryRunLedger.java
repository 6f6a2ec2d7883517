package dev.punctual.ledger.testkit;

import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.spi.LedgerEngine;
import java.util.UUID;

/**
 * The test ledger: the engine over a fresh {@link InMemoryLedgerStore}, as {@code DynamoDbRunLedger} is
 * the engine over DynamoDB, so tests of the runtime get a {@link RunLedger} without the store's
 * primitives.
 */
public final class InMemoryRunLedger {

    private InMemoryRunLedger() {}

    /** The clock is also the ledger's sleeper, so waiting moves time instead of passing it. */
    public static RunLedger create(MutableClock clock) {
        return create(clock, new InMemoryLedgerStore());
    }

    /** Over a store the caller keeps, for its {@link InMemoryLedgerStore#dueIndex()}. */
    public static RunLedger create(MutableClock clock, InMemoryLedgerStore store) {
        return new LedgerEngine(store, clock, () -> UUID.randomUUID().toString(), Retention.DEFAULT, clock::advance);
    }
}
