package dev.punctual.runtime;

import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;

class RecurrenceDeliveryOnDynamoDbTest extends RecurrenceDeliveryContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return EmulatorLedgers.create(getClass(), clock);
    }
}
