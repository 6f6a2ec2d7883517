package dev.punctual.runtime;

import dev.punctual.ledger.MutableClock;
import dev.punctual.ledger.RunLedger;

class ScheduledInvocationOnInMemoryLedgerTest extends ScheduledInvocationContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return RuntimeFixture.inMemory(clock);
    }
}
