package dev.punctual.runtime;

import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.InMemoryRunLedger;
import dev.punctual.ledger.testkit.MutableClock;

class LongJobOnInMemoryLedgerTest extends LongJobContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return InMemoryRunLedger.create(clock);
    }
}
