package dev.punctual.ledger;

/** Taking a lock group's lease on its own (maintenance, or a caller that claims separately). */
public sealed interface AcquireResult permits AcquireResult.Acquired, Busy, UnderMaintenance {

    record Acquired(Lease lease) implements AcquireResult {}
}
