package dev.punctual.ledger.testkit;

import dev.punctual.ledger.DueIndex;
import dev.punctual.ledger.spi.LedgerStore;

/** The due index contract against the in-memory store. */
class InMemoryDueIndexTest extends DueIndexContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }

    @Override
    protected DueIndex dueIndex() {
        return store.dueIndex();
    }
}
