package dev.punctual.ledger;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Turn maintenance on for every lock group of a stage's catalog.
 *
 * @param maxWait how long to keep retrying groups whose jobs are still running
 * @param pollEvery the pause between retries
 * @param force replace a hold another operator set; without it such a hold refuses the request
 *     ({@link MaintenanceRefused}). A hold the same operator ({@code hold.setBy()}) set is replaced either way
 */
public record MaintenanceRequest(
        List<String> groups, MaintenanceHold hold, Duration maxWait, Duration pollEvery, boolean force) {
    public MaintenanceRequest {
        groups = List.copyOf(groups);
        groups.forEach(g -> Ids.require(g, "group"));
        Objects.requireNonNull(hold, "hold");
    }

    /** Not forced: another operator's hold in force refuses it. */
    public MaintenanceRequest(List<String> groups, MaintenanceHold hold, Duration maxWait, Duration pollEvery) {
        this(groups, hold, maxWait, pollEvery, false);
    }

    /** The same request, replacing whoever's hold is in force. */
    public MaintenanceRequest forced() {
        return new MaintenanceRequest(groups, hold, maxWait, pollEvery, true);
    }
}
