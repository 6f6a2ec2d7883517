package dev.punctual.ledger.spi;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceRefused;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Maintenance serialises with jobs like a global lock: it takes the lease of every group, retrying the
 * busy ones for a bounded time, and holds them with a reason, who set it and an expiry. Another
 * operator's hold in force refuses the request (unless forced), in the conditional write of each group;
 * a refused request gives back what it took, so no group is left held by a request told it lost.
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
        // Every request walks the groups in the same (sorted) order: of several operators turning
        // maintenance on at once, the one that takes the first group takes them all, and the others
        // are refused on that first group, before they took anything.
        Map<String, Busy> running = new TreeMap<>();
        request.groups().forEach(g -> running.put(g, new Busy(g, null, null)));
        Map<String, Instant> draining = new TreeMap<>();
        Map<String, Instant> heldSince = new TreeMap<>();
        Map<String, Instant> entityLeasedAt = new TreeMap<>();
        while (true) {
            int before = taken.size();
            Optional<MaintenanceRefused> refused =
                    takeWhatIsFree(request, token, taken, running, heldSince, entityLeasedAt);
            if (refused.isPresent()) {
                giveBack(taken, refused.get());
                return MaintenanceReport.refused(request.hold(), refused.get());
            }
            drainEntityLeases(request, taken.subList(before, taken.size()), heldSince, entityLeasedAt, draining);
            if ((running.isEmpty() && draining.isEmpty()) || !clock.instant().isBefore(giveUpAt)) {
                List<Busy> still = new ArrayList<>(running.values());
                draining.forEach((group, until) -> still.add(new Busy(group, ENTITY_RUNS, until)));
                return new MaintenanceReport(request.hold(), taken, List.copyOf(still));
            }
            pause(request);
        }
    }

    /** How the report names the entity runs a group's hold may still be waiting out. */
    static final String ENTITY_RUNS = MaintenanceReport.ENTITY_RUNS;

    /**
     * A group whose entities hold their own leases counts as held once every entity lease taken before
     * the hold has ended: the hold refuses every entity claim after it (the claim's transaction writes the
     * group item under NO_HOLD_IN_FORCE), and each claim that passed before it noted its time on that item
     * ({@code entityLeasedAt}, the last one's), which the hold's own write returned. A lease ends within
     * the term of when it was taken; the last one was taken after all the others, so the group is held
     * once the term has passed since the last ({@code entityLeasedAt + term}), and at once when no entity
     * ever took its own lease there. The clock decides, as for every lease; no entity lease is read (they
     * cannot be named). The bound is never later than the term counted from when the hold is known to be
     * stored ({@code heldSince}), not from when its write was built: a write retried or slow to land
     * leaves entity claims passing until it does, and each of those notes its time too.
     */
    private void drainEntityLeases(
            MaintenanceRequest request,
            List<Lease> justTaken,
            Map<String, Instant> heldSince,
            Map<String, Instant> entityLeasedAt,
            Map<String, Instant> draining) {
        for (Lease lease : justTaken) {
            Duration term = request.entityLeaseTerms().get(lease.group());
            Instant last = entityLeasedAt.get(lease.group());
            if (term != null && last != null) {
                Instant byLast = last.plus(term);
                Instant byHold = heldSince.get(lease.group()).plus(term);
                draining.put(lease.group(), byLast.isBefore(byHold) ? byLast : byHold);
            }
        }
        Instant now = clock.instant();
        draining.values().removeIf(until -> !now.isBefore(until));
    }

    /**
     * Passes over the groups not yet held until a pass takes nothing, so the last look at each group
     * still busy comes after this request's last take. Two operators whose walks crossed (each took a
     * group the other had seen busy with a job) cannot both keep a part: whichever looks last sees the
     * other's hold and is refused.
     */
    private Optional<MaintenanceRefused> takeWhatIsFree(
            MaintenanceRequest request,
            String token,
            List<Lease> taken,
            Map<String, Busy> running,
            Map<String, Instant> heldSince,
            Map<String, Instant> entityLeasedAt) {
        boolean tookAny;
        do {
            tookAny = false;
            for (String group : List.copyOf(running.keySet())) {
                Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
                Optional<LockState> kept = request.entityLeaseTerms().containsKey(group)
                        ? keepOwnHold(request, group, now)
                        : Optional.empty();
                if (kept.isPresent()) {
                    Lease held = Records.leaseFor(kept.get(), kept.get().leaseOwner());
                    heldSince.put(group, held.acquiredAt());
                    noteEntityLease(kept.get(), entityLeasedAt);
                    taken.add(held);
                    running.remove(group);
                    tookAny = true;
                    continue;
                }
                LeaseGrant grant = LeaseGrant.forMaintenance(group, token, request.hold(), request.force(), now);
                Write<LockState> written = Claiming.takeLease(store, grant);
                LockState seen = written.value();
                if (written.applied()) {
                    heldSince.put(group, clock.instant());
                    noteEntityLease(seen, entityLeasedAt);
                    taken.add(Records.leaseFor(seen, token));
                    running.remove(group);
                    tookAny = true;
                } else if (seen.underMaintenanceAt(now)) {
                    // Rejected by a hold in force: another operator's (a job's lease is the other reason).
                    return Optional.of(new MaintenanceRefused(group, seen.maintenance()));
                } else {
                    running.put(group, new Busy(group, seen.leaseHolder(), seen.leaseUntil()));
                }
            }
        } while (tookAny && !running.isEmpty());
        return Optional.empty();
    }

    /**
     * The last entity lease taken under a group before our hold, as the hold's write (or a read after it)
     * returned the item: no entity claim passes after the hold, so it stays the last while we hold.
     */
    private static void noteEntityLease(LockState held, Map<String, Instant> entityLeasedAt) {
        if (held.entityLeasedAt() != null) {
            entityLeasedAt.put(held.id(), held.entityLeasedAt());
        }
    }

    /**
     * A group whose entities hold their own leases, already held by this operator and in force, is kept
     * as it is instead of taken again: taking it again would write a new start, and the wait for the
     * entity runs started before the hold, counted from that start, would begin again at every {@code
     * maintenance on} an operator runs while waiting (as the report tells them to). The hold keeps its
     * reason; it is extended when this request asks it to last longer. A hold that ended meanwhile (the
     * extension is conditional on it still being in force) is taken afresh, its wait from now. The kept
     * hold's stored start is when its first write was built, earlier than it landed by that write's
     * latency: within the skew tolerance the term carries.
     */
    private Optional<LockState> keepOwnHold(MaintenanceRequest request, String group, Instant now) {
        LockState seen = store.readLock(group);
        if (!seen.underMaintenanceAt(now)
                || seen.maintenance() == null
                || !request.hold().setBy().equals(seen.maintenance().setBy())
                // A command's hold is kept by nobody else, and keeps nobody's: each gives back only its own.
                || request.hold().command().isPresent()
                || seen.maintenance().command().isPresent()) {
            return Optional.empty();
        }
        Lease held = Records.leaseFor(seen, seen.leaseOwner());
        Instant until = request.hold().until().truncatedTo(ChronoUnit.MILLIS);
        if (!until.isAfter(held.expiresAt())) {
            return Optional.of(seen);
        }
        Write<LockState> extended = ReadBack.write(
                "extend maintenance of " + group,
                () -> store.extendLease(held, until, now),
                () -> Optional.of(store.readLock(group))
                        .filter(s -> held.ownerToken().equals(s.leaseOwner()) && until.equals(s.leaseUntil()))
                        .map(Write.Applied::new));
        return extended.applied() ? Optional.of(extended.value()) : Optional.empty();
    }

    /**
     * Releases every lease this refused request took. The release is conditional on our owner token, so
     * a hold forced over ours since is left alone, and sending it again is safe.
     */
    private void giveBack(List<Lease> taken, MaintenanceRefused refused) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        List<String> kept = new ArrayList<>();
        PunctualException last = null;
        for (Lease lease : taken) {
            try {
                ReadBack.write(
                        "give back maintenance of " + lease.group(),
                        () -> store.releaseLease(lease, now),
                        () -> Optional.of(store.readLock(lease.group()))
                                .filter(s -> !lease.ownerToken().equals(s.leaseOwner()))
                                .map(s -> true));
            } catch (PunctualException unavailable) {
                kept.add(lease.group());
                last = unavailable;
            }
        }
        if (!kept.isEmpty()) {
            throw new PunctualException(
                    "maintenance on was refused (" + refused.group() + " is held by "
                            + refused.hold().shownSetBy()
                            + ") but " + kept + " could not be given back; they hold until "
                            + taken.getFirst().expiresAt() + " unless lifted with maintenance off",
                    last);
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
