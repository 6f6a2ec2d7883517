package dev.punctual.ledger;

import java.time.Instant;

/** Why maintenance holds a group, who set it and when it lapses on its own. */
public record MaintenanceHold(String reason, String setBy, Instant until) {}
