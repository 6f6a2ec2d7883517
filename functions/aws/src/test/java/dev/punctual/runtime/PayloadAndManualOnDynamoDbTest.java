package dev.punctual.runtime;

class PayloadAndManualOnDynamoDbTest extends PayloadAndManualContract {
    @Override
    RuntimeFixture.LedgerKind ledger() {
        return RuntimeFixture.LedgerKind.DYNAMODB_ON_EMULATOR;
    }
}
