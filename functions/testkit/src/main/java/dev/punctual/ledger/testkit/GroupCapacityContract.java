package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.LockSlots;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.PauseOutcome;
import dev.punctual.ledger.ResumeChoice;
import dev.punctual.ledger.ResumeOutcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.UnderMaintenance;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A lock group that admits up to N runners (decision 0051), run against every store: N jobs of the group
 * hold it at once and the next is told busy, completion and renewal act on the slot the claim holds, a run
 * of a job on one slot is neither run twice nor abandoned from another, maintenance takes every slot and
 * waits for the busy ones, a pause refuses claims on every slot, an uncontended claim costs what a shared
 * group's always cost (2 requests), and threads racing never have more than N bodies of the group at once
 * while each occurrence succeeds once. Standalone: a store's test class runs only these.
 */
public abstract class GroupCapacityContract {

    private static final Instant START = Instant.parse("2026-12-07T06:00:00Z");
    private static final Instant OCCURRENCES_FROM = START.minus(Duration.ofHours(1));
    private static final Duration LEASE = Duration.ofMinutes(5);

    protected final MutableClock clock = new MutableClock(START);
    private final String prefix = SuitePrefix.fresh('n');
    private final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test; each test uses its own ids, so one table may serve a whole class. */
    protected abstract LedgerStore store();

    /** Occurrences each racing thread goes through; fewer against the emulator, which is slower. */
    protected abstract int raceRounds();

    private RunLedger ledger() {
        return ledger(store());
    }

    private RunLedger ledger(LedgerStore store) {
        return new LedgerEngine(store, clock, tokens, Retention.DEFAULT, d -> clock.advance(d));
    }

    private String id(String name) {
        return prefix + "-" + name;
    }

    private static RunKey key(String job, int minute) {
        return new RunKey(job, OCCURRENCES_FROM.plus(Duration.ofMinutes(minute)));
    }

    private ClaimRequest inGroup(RunKey key, String group, int capacity) {
        return ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(LEASE))
                .inGroup(group)
                .withGroupCapacity(capacity);
    }

    private static Claim claimed(ClaimResult result) {
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    @Test
    void threeJobsOfAGroupOfCapacityThree_holdItAtOnce_onThreeSlots_andAFourthIsToldBusyNamingTheGroup() {
        RunLedger ledger = ledger();
        String group = id("reports");
        List<Claim> held = new ArrayList<>();
        for (String job : List.of("a", "b", "c")) {
            held.add(claimed(ledger.claim(inGroup(key(id(job), 0), group, 3))));
        }

        assertThat(held)
                .extracting(c -> c.lease().group())
                .containsExactlyInAnyOrderElementsOf(LockSlots.slotIds(group, 3));
        ClaimResult fourth = ledger.claim(inGroup(key(id("d"), 0), group, 3));
        assertThat(fourth).isInstanceOf(Busy.class);
        assertThat(((Busy) fourth).group()).isEqualTo(group);

        CompletionResult done = ledger.complete(held.get(1), new Outcome.Succeeded(null));
        assertThat(done).isInstanceOf(CompletionResult.Completed.class);
        assertThat(ledger.lock(held.get(1).lease().group()).leaseHeldAt(clock.peek()))
                .as("the completion released the slot the claim held")
                .isFalse();
        Claim next = claimed(ledger.claim(inGroup(key(id("d"), 0), group, 3)));
        assertThat(next.lease().group()).isEqualTo(held.get(1).lease().group());
        for (Claim claim : List.of(held.get(0), held.get(2), next)) {
            assertThat(ledger.complete(claim, new Outcome.Succeeded(null)))
                    .isInstanceOf(CompletionResult.Completed.class);
            assertThat(ledger.run(claim.key()).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }

    @Test
    void aRenewal_movesTheEndOfTheSlotTheClaimHolds_only() {
        RunLedger ledger = ledger();
        String group = id("renewed");
        Claim a = claimed(ledger.claim(inGroup(key(id("a"), 0), group, 2)));
        Claim b = claimed(ledger.claim(inGroup(key(id("b"), 0), group, 2)));
        Instant later = a.lease().expiresAt().plus(Duration.ofMinutes(3));

        assertThat(ledger.extend(a.lease(), later)).isPresent();

        assertThat(ledger.lock(a.lease().group()).leaseUntil()).isEqualTo(later);
        assertThat(ledger.lock(b.lease().group()).leaseUntil())
                .isEqualTo(b.lease().expiresAt());
    }

    @Test
    void aJobsRunOnOneSlot_isNeitherRunAgainNorAbandoned_fromAnotherSlot() {
        RunLedger ledger = ledger();
        String group = id("own-run");
        RunKey first = key(id("a"), 0);
        Claim running = claimed(ledger.claim(inGroup(first, group, 2)));

        ClaimResult redelivery = ledger.claim(inGroup(first, group, 2));
        ClaimResult nextOccurrence = ledger.claim(inGroup(key(id("a"), 1), group, 2));

        assertThat(redelivery).isInstanceOf(ClaimResult.InProgressElsewhere.class);
        assertThat(nextOccurrence).isInstanceOf(Busy.class);
        assertThat(ledger.lock(group).leaseHeldAt(clock.peek())
                        && ledger.lock(group + "#2").leaseHeldAt(clock.peek()))
                .as("the refused claims gave back the slot they took")
                .isFalse();
        assertThat(ledger.complete(running, new Outcome.Succeeded(null)))
                .isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void aJobsRunWhoseSlotLapsed_isAbandoned_itsOccurrenceRetried_andTheDeadRunFenced() {
        RunLedger ledger = ledger();
        String group = id("lapsed");
        RunKey first = key(id("a"), 0);
        Claim dead = claimed(ledger.claim(inGroup(first, group, 2)));
        clock.advance(LEASE.plus(Duration.ofSeconds(1)));
        // Another job takes one slot (maybe the dead run's), so the retry may meet the dead run on the other.
        Claim other = claimed(ledger.claim(inGroup(key(id("b"), 0), group, 2)));

        Claim retry = claimed(ledger.claim(inGroup(first, group, 2)));

        assertThat(retry.attempt()).isEqualTo(2);
        assertThat(ledger.complete(dead, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Fenced.class);
        assertThat(ledger.extend(dead.lease(), clock.peek().plus(LEASE))).isEmpty();
        assertThat(ledger.complete(retry, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Completed.class);
        assertThat(ledger.run(first).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ledger.run(first).orElseThrow().earlier())
                .extracting(a -> a.status())
                .contains(RunStatus.ABANDONED);
        assertThat(ledger.complete(other, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void maintenance_takesEverySlot_waitingForTheBusyOne_andThenEveryClaimMeetsIt() {
        RunLedger ledger = ledger();
        String group = id("maint");
        List<String> slots = LockSlots.slotIds(group, 3);
        Claim running = claimed(ledger.claim(inGroup(key(id("a"), 0), group, 3)));
        MaintenanceHold hold = new MaintenanceHold("load", "alice", clock.peek().plus(Duration.ofHours(1)));

        MaintenanceReport partly =
                ledger.maintenanceOn(new MaintenanceRequest(slots, hold, Duration.ofSeconds(2), Duration.ofSeconds(1)));

        assertThat(partly.complete()).isFalse();
        assertThat(partly.stillRunning())
                .extracting(Busy::group)
                .containsExactly(running.lease().group());
        assertThat(partly.taken()).hasSize(2);
        ClaimResult refused = ledger.claim(inGroup(key(id("b"), 0), group, 3));
        assertThat(refused).isInstanceOf(UnderMaintenance.class);
        assertThat(((UnderMaintenance) refused).group()).isEqualTo(group);

        ledger.complete(running, new Outcome.Succeeded(null));
        MaintenanceReport whole =
                ledger.maintenanceOn(new MaintenanceRequest(slots, hold, Duration.ofSeconds(2), Duration.ofSeconds(1)));

        assertThat(whole.complete()).isTrue();
        assertThat(slots)
                .allSatisfy(s -> assertThat(ledger.lock(s).underMaintenanceAt(clock.peek()))
                        .as("slot %s held", s)
                        .isTrue());
        for (String job : List.of("c", "d", "e", "f")) {
            assertThat(ledger.claim(inGroup(key(id(job), 0), group, 3))).isInstanceOf(UnderMaintenance.class);
        }
        assertThat(ledger.maintenanceOff(slots)).containsExactlyElementsOf(slots);
        assertThat(ledger.claim(inGroup(key(id("c"), 0), group, 3))).isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void aPauseOfTheGroup_refusesClaimsOnEverySlot_andItsResumeLetsThemAllRunAgain() {
        RunLedger ledger = ledger();
        String group = id("paused");
        List<String> jobs = List.of("a", "b", "c", "d", "e", "f", "g", "h");

        PauseOutcome paused = ledger.pause(group, 3, "ops", "supplier outage", Optional.empty(), true);

        assertThat(paused).isInstanceOf(PauseOutcome.Set.class);
        for (String slot : LockSlots.slotIds(group, 3)) {
            assertThat(ledger.lock(slot).pause()).as("mark on %s", slot).isNotNull();
        }
        for (String job : jobs) {
            ClaimResult refused = ledger.claim(inGroup(key(id(job), 0), group, 3));
            assertThat(refused).as("claim of %s", job).isInstanceOf(ClaimResult.Paused.class);
            assertThat(((ClaimResult.Paused) refused).id()).isEqualTo(group);
        }
        assertThat(ledger.pause(group, 3, "bob", "again", Optional.empty(), true))
                .isInstanceOf(PauseOutcome.AlreadyPaused.class);

        assertThat(ledger.resume(group, 3, ResumeChoice.CATCH_UP)).isInstanceOf(ResumeOutcome.Resumed.class);

        for (String slot : LockSlots.slotIds(group, 3)) {
            assertThat(ledger.lock(slot).pause()).as("mark on %s", slot).isNull();
        }
        List<Claim> running = new ArrayList<>();
        for (String job : jobs.subList(0, 3)) {
            running.add(claimed(ledger.claim(inGroup(key(id(job), 0), group, 3))));
        }
        running.forEach(c -> ledger.complete(c, new Outcome.Succeeded(null)));
    }

    @Test
    void anUncontendedClaim_costsTwoRequests_theSlotsLeaseAndTheJobsSlot_andItsCompletionOne() {
        AtomicInteger calls = new AtomicInteger();
        LedgerStore counted = counting(store(), calls);
        RunLedger ledger = ledger(counted);
        String group = id("cost");

        Claim claim = claimed(ledger.claim(inGroup(key(id("a"), 0), group, 4)));
        int claimCalls = calls.getAndSet(0);
        ledger.complete(claim, new Outcome.Succeeded(null));

        assertThat(claimCalls).isEqualTo(2);
        assertThat(calls.get()).isEqualTo(1);
    }

    private static LedgerStore counting(LedgerStore store, AtomicInteger calls) {
        return (LedgerStore) Proxy.newProxyInstance(
                LedgerStore.class.getClassLoader(), new Class<?>[] {LedgerStore.class}, (proxy, method, args) -> {
                    calls.incrementAndGet();
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** One body of the group: from after its claim returned to before its completion was sent. */
    private record Body(String job, String slot, long start, long end) {}

    @Test
    void threadsRacing_inAGroupOfCapacityTwo_neverHaveMoreThanTwoBodiesAtOnce_andEachOccurrenceSucceedsOnce()
            throws Exception {
        MutableClock ticking = new MutableClock(START, Duration.ofMillis(1));
        RunLedger ledger = new LedgerEngine(store(), ticking, tokens, Retention.DEFAULT, ticking::advance);
        String group = id("race");
        int capacity = 2;
        // Two threads per job: each occurrence is delivered twice at once, so a job meets its own run too.
        List<String> jobs = List.of(id("r1"), id("r2"), id("r3"));
        Map<RunKey, AtomicInteger> successes = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Body> bodies = new ConcurrentLinkedQueue<>();
        AtomicLong order = new AtomicLong();

        ExecutorService pool = Executors.newFixedThreadPool(jobs.size() * 2);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < jobs.size() * 2; t++) {
            String job = jobs.get(t % jobs.size());
            workers.add(pool.submit(() -> {
                for (int round = 0; round < raceRounds(); round++) {
                    RunKey key = key(job, round);
                    ClaimRequest request = ClaimRequest.scheduled(
                                    key, 1, 3, ticking.peek().plus(Duration.ofHours(1)))
                            .inGroup(group)
                            .withGroupCapacity(capacity);
                    while (true) {
                        ClaimResult result = ledger.claim(request);
                        if (result instanceof ClaimResult.Claimed c) {
                            long start = order.incrementAndGet();
                            long end = order.incrementAndGet();
                            bodies.add(new Body(job, c.claim().lease().group(), start, end));
                            if (ledger.complete(c.claim(), new Outcome.Succeeded(null))
                                    instanceof CompletionResult.Completed) {
                                successes
                                        .computeIfAbsent(key, k -> new AtomicInteger())
                                        .incrementAndGet();
                            }
                            break;
                        }
                        if (result instanceof ClaimResult.AlreadyDone) {
                            break;
                        }
                        assertThat(result).isInstanceOfAny(Busy.class, ClaimResult.InProgressElsewhere.class);
                        Thread.onSpinWait();
                    }
                }
                return null;
            }));
        }
        try {
            for (Future<?> worker : workers) {
                worker.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        for (String job : jobs) {
            for (int round = 0; round < raceRounds(); round++) {
                RunKey key = key(job, round);
                assertThat(successes.get(key)).as("successes of %s", key).hasValue(1);
                assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
            }
        }
        assertThat(bodies).hasSize(jobs.size() * raceRounds());
        assertThat(mostAtOnce(List.copyOf(bodies))).isBetween(1, capacity);
        Set<String> slots = new HashSet<>();
        bodies.forEach(b -> slots.add(b.slot()));
        assertThat(LockSlots.slotIds(group, capacity)).containsAll(slots);
        for (String job : jobs) {
            assertThat(mostAtOnce(
                            bodies.stream().filter(b -> b.job().equals(job)).toList()))
                    .as("bodies of %s at once", job)
                    .isEqualTo(1);
        }
    }

    /** The most bodies whose intervals on the global order overlap at one point. */
    static int mostAtOnce(List<Body> bodies) {
        List<long[]> events = new ArrayList<>();
        for (Body b : bodies) {
            events.add(new long[] {b.start(), 1});
            events.add(new long[] {b.end(), -1});
        }
        events.sort(Comparator.comparingLong(e -> e[0]));
        int now = 0;
        int most = 0;
        for (long[] e : events) {
            now += (int) e[1];
            most = Math.max(most, now);
        }
        return most;
    }
}
