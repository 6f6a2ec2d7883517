package dev.punctual.ledger.testkit;

import dev.punctual.ledger.spi.LedgerStore;

/** The history contract against the in-memory store, which has no pages: one list serves every page size. */
class InMemoryHistoryTest extends HistoryContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }

    @Override
    protected LedgerStore store(int page) {
        return store;
    }
}
