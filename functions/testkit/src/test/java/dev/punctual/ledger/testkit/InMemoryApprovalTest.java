package dev.punctual.ledger.testkit;

import dev.punctual.ledger.spi.LedgerStore;

/** The approval contract (decision 0041) against the in-memory store. */
class InMemoryApprovalTest extends ApprovalContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }

    @Override
    protected LedgerStore concurrentStore() {
        return store;
    }

    @Override
    protected int rounds() {
        return 50;
    }
}
