package dev.punctual.ledger.testkit;

import dev.punctual.ledger.spi.LedgerStore;

/** The last-success contract (decision 0042) against the in-memory store. */
class InMemoryFreshnessTest extends FreshnessContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }
}
