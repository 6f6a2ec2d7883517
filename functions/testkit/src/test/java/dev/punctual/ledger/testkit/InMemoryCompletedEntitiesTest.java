package dev.punctual.ledger.testkit;

import dev.punctual.ledger.spi.LedgerStore;

/** The completed entities contract (decision 0047) against the in-memory store. */
class InMemoryCompletedEntitiesTest extends CompletedEntitiesContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }
}
