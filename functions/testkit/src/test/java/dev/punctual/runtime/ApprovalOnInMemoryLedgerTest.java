package dev.punctual.runtime;

import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;

class ApprovalOnInMemoryLedgerTest extends ApprovalRuntimeContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return RuntimeFixture.inMemory(clock);
    }
}
