package dev.punctual.runtime;

import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;

class MaintenanceConditionOnDynamoDbTest extends MaintenanceConditionContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return EmulatorLedgers.create(getClass(), clock);
    }
}
