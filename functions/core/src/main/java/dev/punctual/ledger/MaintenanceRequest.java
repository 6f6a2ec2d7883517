package dev.punctual.ledger;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Turn maintenance on for every lock group of a stage's catalog.
 *
 * @param maxWait how long to keep retrying groups whose jobs are still running
 * @param pollEvery the pause between retries
 */
public record MaintenanceRequest(List<String> groups, MaintenanceHold hold, Duration maxWait, Duration pollEvery) {
    public MaintenanceRequest {
        groups = List.copyOf(groups);
        groups.forEach(g -> Ids.require(g, "group"));
        Objects.requireNonNull(hold, "hold");
    }
}
