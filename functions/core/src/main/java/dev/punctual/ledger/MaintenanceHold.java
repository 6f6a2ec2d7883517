package dev.punctual.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/** Why maintenance holds a group, who set it and when it lapses on its own. */
public record MaintenanceHold(String reason, String setBy, Instant until) {
    public MaintenanceHold {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(setBy, "setBy");
        until = Objects.requireNonNull(until, "until").truncatedTo(ChronoUnit.MILLIS);
    }
}
