package dev.punctual.hold;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.RunLedger;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A stage's maintenance held for as long as a tool runs (decision 0036): taken as {@code maintenance on}
 * takes it (every group, the same bounded wait for running jobs, the same refusal of another operator's
 * hold), but lapsing {@link HoldTerms#lapse()} after its last renewal instead of days later. A renewer
 * extends every group each quarter lapse, fenced on our token; {@link #close()} stops it and gives the
 * groups back, so a tool written as
 *
 * <pre>{@code
 * try (HeldMaintenance held = HeldMaintenance.take(ledger, terms, clock, listener).orThrow()) {
 *     load();
 * }
 * }</pre>
 *
 * holds the stage exactly while {@code load()} runs, and a tool that dies holds it at most one lapse
 * longer. Jobs meeting the hold record {@code SKIP MAINTENANCE} and catch up after it.
 */
public final class HeldMaintenance implements AutoCloseable {

    private final RunLedger ledger;
    private final HoldTerms terms;
    private final Clock clock;
    private final HoldListener listener;
    private final MaintenanceHold hold;
    private final Instant since;
    /** The groups still ours, by group; a lost one leaves this map for {@link #lost}. Guarded by this. */
    private final Map<String, Lease> held = new LinkedHashMap<>();

    private final List<String> lost = new ArrayList<>();
    private final Object closing = new Object();
    private ScheduledExecutorService renewer;
    private boolean closed;

    private HeldMaintenance(
            RunLedger ledger,
            HoldTerms terms,
            Clock clock,
            HoldListener listener,
            MaintenanceHold hold,
            Instant since,
            List<Lease> taken) {
        this.ledger = ledger;
        this.terms = terms;
        this.clock = clock;
        this.listener = listener;
        this.hold = hold;
        this.since = since;
        taken.forEach(lease -> held.put(lease.group(), lease));
    }

    /**
     * Take the hold and start renewing it on a daemon thread. Only {@link HoldOutcome.Held} holds
     * anything; an incomplete take gives back what it took.
     */
    public static HoldOutcome take(RunLedger ledger, HoldTerms terms, Clock clock, HoldListener listener) {
        return take(ledger, terms, clock, listener, terms.renewEvery());
    }

    /** {@link #take} renewing at another pace: for the tests of the renewer thread itself. */
    static HoldOutcome take(
            RunLedger ledger, HoldTerms terms, Clock clock, HoldListener listener, java.time.Duration renewEvery) {
        HoldOutcome outcome = takeWithoutRenewer(ledger, terms, clock, listener);
        if (outcome instanceof HoldOutcome.Held(HeldMaintenance hold)) {
            hold.startRenewer(renewEvery);
        }
        return outcome;
    }

    /**
     * Take the hold, renewed only by {@link #renewNow()}: for tests that move a clock, and for tools that
     * renew from a loop of their own (at least every {@link HoldTerms#renewEvery()}).
     */
    public static HoldOutcome takeWithoutRenewer(
            RunLedger ledger, HoldTerms terms, Clock clock, HoldListener listener) {
        Instant start = clock.instant();
        // Nothing renews during the take's wait for running jobs, so its first groups are held through it.
        MaintenanceHold hold = new MaintenanceHold(
                terms.reason(), terms.by(), start.plus(terms.maxWait()).plus(terms.lapse()), terms.command());
        MaintenanceReport report =
                ledger.maintenanceOn(new MaintenanceRequest(terms.groups(), hold, terms.maxWait(), terms.pollEvery())
                        .withEntityLeases(terms.entityLeaseTerms()));
        if (report.refused().isPresent()) {
            return new HoldOutcome.Refused(report.refused().get()); // it gave back what it took
        }
        if (!report.stillRunning().isEmpty()) {
            // Half a stage held is a hold nobody asked for: give it back before saying so.
            ledger.releaseMaintenance(report.taken());
            return new HoldOutcome.StillRunning(report.stillRunning());
        }
        HeldMaintenance held =
                new HeldMaintenance(ledger, terms, clock, listener, report.hold(), start, report.taken());
        // The take lasted through its wait; from now on a holder that dies holds the stage one lapse at most.
        held.renewNow();
        return new HoldOutcome.Held(held);
    }

    private synchronized void startRenewer(java.time.Duration renewEvery) {
        renewer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "punctual-hold-renewer");
            thread.setDaemon(true); // a tool that returns from main is not kept alive by its hold
            return thread;
        });
        long every = Math.max(1, renewEvery.toMillis());
        renewer.scheduleWithFixedDelay(this::renewQuietly, every, every, TimeUnit.MILLISECONDS);
    }

    private void renewQuietly() {
        try {
            renewNow();
        } catch (RuntimeException unexpected) {
            // A scheduled task that throws is never run again; the next tick must still come.
            heldUntil()
                    .keySet()
                    .forEach(group -> listener.renewalFailed(
                            group,
                            new PunctualException(
                                    "renewal of " + group + " failed: " + unexpected.getMessage(), unexpected)));
        }
    }

    /**
     * Renew every group still ours to {@code now + lapse} ({@link RunLedger#renewHold}). A group whose
     * renewal is refused (lifted, forced over, or lapsed and taken) is lost: reported to the listener and
     * never renewed again. So is one whose renewal comes within the skew tolerance of its end: a process
     * whose clock runs that much ahead may already have counted it free. A group the ledger could not be
     * reached for is retried at the next renewal. The calls are made outside the hold's lock, so a slow
     * ledger never holds up {@link #close()}; what a renewal answers after the close is ignored.
     */
    public void renewNow() {
        List<Lease> toRenew;
        synchronized (this) {
            if (closed) {
                return;
            }
            toRenew = List.copyOf(held.values());
        }
        for (Lease lease : toRenew) {
            Instant now = clock.instant();
            if (!now.isBefore(lease.expiresAt().minus(Lease.DEADLINE_MARGIN))) {
                lose(lease, "its renewal came within the skew tolerance of its end " + lease.expiresAt());
                continue;
            }
            try {
                Optional<Lease> renewed = ledger.renewHold(lease, now.plus(terms.lapse()));
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    if (renewed.isPresent()) {
                        held.put(lease.group(), renewed.get());
                        continue;
                    }
                }
                lose(lease, null);
            } catch (PunctualException unreachable) {
                listener.renewalFailed(lease.group(), unreachable);
            }
        }
    }

    private void lose(Lease lease, String why) {
        synchronized (this) {
            if (closed || held.remove(lease.group()) == null) {
                return;
            }
            lost.add(lease.group());
        }
        if (why != null) {
            listener.renewalFailed(lease.group(), new PunctualException(lease.group() + " counts as lost: " + why));
        }
        listener.lost(lease.group(), ledger.lock(lease.group()));
    }

    /** The hold as stored: reason, who, command, and the end of the take (renewals move it on). */
    public MaintenanceHold hold() {
        return hold;
    }

    /** When the take started. */
    public Instant since() {
        return since;
    }

    /** The groups still ours, and until when each is held, as the last renewal left them. */
    public synchronized Map<String, Instant> heldUntil() {
        Map<String, Instant> out = new LinkedHashMap<>();
        held.forEach((group, lease) -> out.put(group, lease.expiresAt()));
        return out;
    }

    /** The groups whose hold ended under us, in the order it was found. */
    public synchronized List<String> lost() {
        return List.copyOf(lost);
    }

    /** Every group is still ours (as of the last renewal). */
    public synchronized boolean intact() {
        return lost.isEmpty();
    }

    /**
     * Stop renewing and give every group still ours back; a group forced over or taken since is left
     * alone. Idempotent. A ledger that cannot be reached leaves the groups to lapse by themselves, at the
     * latest one lapse after the last renewal: the fault says which and until when.
     */
    @Override
    public void close() {
        // A second caller (the CLI's shutdown hook and its main thread, on a signal) waits for the first
        // to finish giving back: it may close the ledger's client as soon as close() returns.
        synchronized (closing) {
            List<Lease> toRelease;
            synchronized (this) {
                if (closed) {
                    return;
                }
                // A renewal still in flight is conditional on our token: landing after the release, it is
                // refused; landing before, the release follows it. Either way the groups end released.
                closed = true;
                toRelease = List.copyOf(held.values());
            }
            if (renewer != null) {
                renewer.shutdownNow();
            }
            release(toRelease);
        }
    }

    private void release(List<Lease> toRelease) {
        try {
            ledger.releaseMaintenance(toRelease);
        } catch (PunctualException unreachable) {
            Instant lapsesBy = toRelease.stream()
                    .map(Lease::expiresAt)
                    .max(Instant::compareTo)
                    .orElse(clock.instant());
            throw new PunctualException(
                    "the hold could not be given back (" + unreachable.getMessage() + "); "
                            + toRelease.stream().map(Lease::group).toList() + " lapse by themselves by " + lapsesBy
                            + ", or lift them with maintenance off --by " + hold.setBy(),
                    unreachable);
        }
    }
}
