package dev.punctual.runtime;

import dev.punctual.ledger.MutableClock;
import dev.punctual.ledger.RunLedger;

class ScheduledInvocationOnDynamoDbTest extends ScheduledInvocationContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return EmulatorLedgers.create(getClass(), clock);
    }
}
