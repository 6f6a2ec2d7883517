package dev.punctual.ledger;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What turning maintenance on achieved. Groups taken stay held until turned off or the hold expires;
 * {@code stillRunning} names the runs that did not finish within the wait (maintenance is then only
 * partly on, and the operator decides whether to wait longer). {@code refused} is present when another
 * operator's hold was in force: then nothing is taken and nothing is still running.
 */
public record MaintenanceReport(
        MaintenanceHold hold, List<Lease> taken, List<Busy> stillRunning, Optional<MaintenanceRefused> refused) {

    /**
     * The holder a {@link Busy} of {@code stillRunning} names for a group already held whose entity runs,
     * started before the hold, may still be running (their leases cannot be named, only waited out).
     */
    public static final String ENTITY_RUNS = "entity runs started before the hold";

    public MaintenanceReport {
        taken = List.copyOf(taken);
        stillRunning = List.copyOf(stillRunning);
        Objects.requireNonNull(refused, "refused");
    }

    /** Maintenance on: what was taken, and what is still running. */
    public MaintenanceReport(MaintenanceHold hold, List<Lease> taken, List<Busy> stillRunning) {
        this(hold, taken, stillRunning, Optional.empty());
    }

    /** Refused by another operator's hold: nothing taken. */
    public static MaintenanceReport refused(MaintenanceHold hold, MaintenanceRefused by) {
        return new MaintenanceReport(hold, List.of(), List.of(), Optional.of(by));
    }

    /** Every group is held by this request's hold. */
    public boolean complete() {
        return refused.isEmpty() && stillRunning.isEmpty();
    }
}
