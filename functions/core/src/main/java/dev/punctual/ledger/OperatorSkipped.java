package dev.punctual.ledger;

/**
 * The occurrence carries an operator's skip (decision 0033): it never starts, whatever the trigger. The
 * record is the run item as stored; {@link RunRecord#operatorSkip()} says who, why and whether a delivery
 * already met it.
 */
public record OperatorSkipped(RunRecord record) implements ClaimResult {}
