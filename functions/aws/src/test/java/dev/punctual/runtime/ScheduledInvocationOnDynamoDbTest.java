package dev.punctual.runtime;

class ScheduledInvocationOnDynamoDbTest extends ScheduledInvocationContract {
    @Override
    RuntimeFixture.LedgerKind ledger() {
        return RuntimeFixture.LedgerKind.DYNAMODB_ON_EMULATOR;
    }
}
