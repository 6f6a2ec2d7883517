package dev.punctual.ledger.testkit;

import dev.punctual.ledger.spi.LedgerStore;

/** The contract against the in-memory store. */
class InMemoryRunLedgerTest extends SkipContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }

    @Override
    protected Stores faultyStores(FaultPlan plan) {
        return new Stores(new FaultyStore(store, plan), store);
    }

    @Override
    protected int rounds() {
        return 50;
    }
}
