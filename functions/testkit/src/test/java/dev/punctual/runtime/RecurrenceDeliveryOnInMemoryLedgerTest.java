package dev.punctual.runtime;

import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;

class RecurrenceDeliveryOnInMemoryLedgerTest extends RecurrenceDeliveryContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return RuntimeFixture.inMemory(clock);
    }
}
