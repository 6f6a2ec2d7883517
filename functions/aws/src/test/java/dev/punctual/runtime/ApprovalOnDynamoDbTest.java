package dev.punctual.runtime;

import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;

/** The runtime and a job needing approval (decision 0041) on DynamoDB, on the emulator. */
class ApprovalOnDynamoDbTest extends ApprovalRuntimeContract {
    @Override
    protected RunLedger ledger(MutableClock clock) {
        return EmulatorLedgers.create(getClass(), clock);
    }
}
