package dev.punctual.ledger.testkit;

import dev.punctual.ledger.spi.LedgerStore;

/** The long-occurrence contract against the in-memory store. */
class InMemoryLongRunLedgerTest extends LongRunLedgerContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }

    @Override
    protected LedgerStore faultyStore(FaultPlan plan) {
        return new FaultyStore(store, plan);
    }
}
