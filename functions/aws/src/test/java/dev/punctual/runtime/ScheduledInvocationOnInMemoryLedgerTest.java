package dev.punctual.runtime;

class ScheduledInvocationOnInMemoryLedgerTest extends ScheduledInvocationContract {
    @Override
    RuntimeFixture.LedgerKind ledger() {
        return RuntimeFixture.LedgerKind.IN_MEMORY;
    }
}
