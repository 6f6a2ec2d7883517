package dev.punctual.ledger;

import java.util.List;

/**
 * What turning maintenance on achieved. Groups taken stay held until turned off or the hold expires;
 * {@code stillRunning} names the runs that did not finish within the wait (maintenance is then only
 * partly on, and the operator decides whether to wait longer).
 */
public record MaintenanceReport(MaintenanceHold hold, List<Lease> taken, List<Busy> stillRunning) {

    public boolean complete() {
        return stillRunning.isEmpty();
    }
}
