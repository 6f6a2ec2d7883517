package dev.punctual.ledger.testkit;

import dev.punctual.ledger.spi.LedgerStore;

/** The pause contract (decision 0040) on the in-memory store. */
class InMemoryPauseTest extends PauseContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }
}
