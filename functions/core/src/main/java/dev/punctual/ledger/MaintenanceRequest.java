package dev.punctual.ledger;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turn maintenance on for every lock group of a stage's catalog.
 *
 * @param maxWait how long to keep retrying groups whose jobs are still running
 * @param pollEvery the pause between retries
 * @param force replace a hold another operator set; without it such a hold refuses the request
 *     ({@link MaintenanceRefused}). A hold the same operator ({@code hold.setBy()}) set is replaced either way
 * @param entityLeaseTerms for a group whose job's entities hold their own leases (decision 0029, 5): the
 *     longest lease such an entity run can hold, counted from when it was taken. The hold refuses new
 *     entity claims from the moment it is taken, but cannot name the entity leases taken before it; every
 *     entity claim notes its time on the group's item, so the group counts as held once that term has
 *     passed since the last entity lease taken before the hold (at once when no entity ever took one, and
 *     never later than the term after the hold), and until then the report names it as still running
 */
public record MaintenanceRequest(
        List<String> groups,
        MaintenanceHold hold,
        Duration maxWait,
        Duration pollEvery,
        boolean force,
        Map<String, Duration> entityLeaseTerms) {
    public MaintenanceRequest {
        groups = List.copyOf(groups);
        groups.forEach(g -> LockSlots.requireLockItem(g, "group"));
        Objects.requireNonNull(hold, "hold");
        entityLeaseTerms = Map.copyOf(entityLeaseTerms);
        for (var term : entityLeaseTerms.entrySet()) {
            if (!groups.contains(term.getKey()) || term.getValue().isNegative()) {
                throw new IllegalArgumentException("entityLeaseTerms: " + term + " is not accepted; expected a"
                        + " group of the request and a term of 0 or more");
            }
        }
    }

    public MaintenanceRequest(
            List<String> groups, MaintenanceHold hold, Duration maxWait, Duration pollEvery, boolean force) {
        this(groups, hold, maxWait, pollEvery, force, Map.of());
    }

    /** The same request, waiting out the entity leases of these groups (see {@code entityLeaseTerms}). */
    public MaintenanceRequest withEntityLeases(Map<String, Duration> terms) {
        return new MaintenanceRequest(groups, hold, maxWait, pollEvery, force, terms);
    }

    /** Not forced: another operator's hold in force refuses it. */
    public MaintenanceRequest(List<String> groups, MaintenanceHold hold, Duration maxWait, Duration pollEvery) {
        this(groups, hold, maxWait, pollEvery, false);
    }

    /** The same request, replacing whoever's hold is in force. */
    public MaintenanceRequest forced() {
        return new MaintenanceRequest(groups, hold, maxWait, pollEvery, true, entityLeaseTerms);
    }
}
