package dev.punctual.runtime;

import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;

class MaintenanceConditionOnInMemoryLedgerTest extends MaintenanceConditionContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return RuntimeFixture.inMemory(clock);
    }
}
