package dev.punctual.ledger.testkit;

import dev.punctual.ledger.spi.LedgerStore;

/** The contract of a lock group admitting N runners (decision 0051) on the in-memory store. */
class InMemoryGroupCapacityTest extends GroupCapacityContract {

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    @Override
    protected LedgerStore store() {
        return store;
    }

    @Override
    protected int raceRounds() {
        return 40;
    }
}
