package dev.punctual.runtime;

class PayloadAndManualOnInMemoryLedgerTest extends PayloadAndManualContract {
    @Override
    RuntimeFixture.LedgerKind ledger() {
        return RuntimeFixture.LedgerKind.IN_MEMORY;
    }
}
