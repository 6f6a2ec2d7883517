package dev.punctual.ledger;

import java.time.Instant;

/** The group's lease is held by another run until {@code until}; someone else winning is not a fault. */
public record Busy(String group, String holder, Instant until) implements ClaimResult {}
