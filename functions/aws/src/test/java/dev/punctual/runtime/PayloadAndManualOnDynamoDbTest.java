package dev.punctual.runtime;

import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;

class PayloadAndManualOnDynamoDbTest extends PayloadAndManualContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return EmulatorLedgers.create(getClass(), clock);
    }
}
