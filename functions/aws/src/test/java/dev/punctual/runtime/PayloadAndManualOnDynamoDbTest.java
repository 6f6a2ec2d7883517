package dev.punctual.runtime;

import dev.punctual.ledger.MutableClock;
import dev.punctual.ledger.RunLedger;

class PayloadAndManualOnDynamoDbTest extends PayloadAndManualContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return EmulatorLedgers.create(getClass(), clock);
    }
}
