package dev.punctual.ledger.spi;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Sleeper;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maintenance serialises with jobs like a global lock: it takes the lease of every group, retrying the
 * busy ones for a bounded time, and holds them with a reason, who set it and an expiry.
 */
final class Maintenance {

    private final LedgerStore store;
    private final Clock clock;
    private final Sleeper sleeper;

    Maintenance(LedgerStore store, Clock clock, Sleeper sleeper) {
        this.store = store;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    MaintenanceReport turnOn(MaintenanceRequest request, String token) {
        Instant giveUpAt = clock.instant().plus(request.maxWait());
        List<Lease> taken = new ArrayList<>();
        Map<String, Busy> running = new LinkedHashMap<>();
        request.groups().forEach(g -> running.put(g, new Busy(g, null, null)));
        while (true) {
            takeWhatIsFree(request, token, taken, running);
            if (running.isEmpty() || !clock.instant().isBefore(giveUpAt)) {
                return new MaintenanceReport(request.hold(), List.copyOf(taken), List.copyOf(running.values()));
            }
            pause(request);
        }
    }

    private void takeWhatIsFree(
            MaintenanceRequest request, String token, List<Lease> taken, Map<String, Busy> running) {
        for (String group : List.copyOf(running.keySet())) {
            LeaseGrant grant = LeaseGrant.forMaintenance(
                    group, token, request.hold(), clock.instant().truncatedTo(ChronoUnit.MILLIS));
            Write<LockState> written = Claiming.takeLease(store, grant);
            if (written.applied()) {
                taken.add(Records.leaseFor(written.value(), token));
                running.remove(group);
            } else {
                LockState seen = written.value();
                running.put(group, new Busy(group, seen.leaseHolder(), seen.leaseUntil()));
            }
        }
    }

    private void pause(MaintenanceRequest request) {
        try {
            sleeper.sleep(request.pollEvery());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PunctualException("interrupted while waiting for running jobs to finish", e);
        }
    }
}
