package dev.punctual.ledger;

/** Maintenance holds the group: the job must record a maintenance skip before doing any work. */
public record UnderMaintenance(String group, MaintenanceHold hold) implements ClaimResult {}
