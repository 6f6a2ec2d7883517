package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRefused;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.UnderMaintenance;
import dev.punctual.ledger.spi.LeaseGrant;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Races and injected faults, run against every store. */
public abstract class RunLedgerRaceContract extends RunLedgerContract {

    private static final int THREADS = 16;

    /** How long no claim may be answered before a race is called hung (never a limit on its duration). */
    private static final Duration HANG = Duration.ofMinutes(5);

    /** Claims answered and holds tried in the races: the progress {@link HangGuard} watches. */
    private final AtomicLong answered = new AtomicLong();

    /** The faulty store injects faults; the clean one reads the same data without them. */
    public record Stores(LedgerStore faulty, LedgerStore clean) {}

    protected abstract Stores faultyStores(FaultPlan plan);

    /** Occurrences each thread races through; fewer against the emulator, which is slower. */
    protected abstract int rounds();

    /** The store the racing threads share; the same data as {@link #store()}. */
    protected LedgerStore concurrentStore() {
        return store();
    }

    @Test
    void sixteenThreads_racingForTheSameOccurrences_eachSucceedsExactlyOnce_andLeasesNeverOverlap() throws Exception {
        MutableClock ticking = new MutableClock(START, Duration.ofMillis(1));
        RunLedger ledger = new LedgerEngine(concurrentStore(), ticking, tokens, Retention.DEFAULT, ticking::advance);
        String shared = job("shared");
        List<String> jobs = List.of(job("solo"), job("a"), job("b"));
        Map<RunKey, AtomicInteger> successes = new ConcurrentHashMap<>();
        LeaseHistory history = new LeaseHistory();

        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            String jobId = jobs.get(t % jobs.size());
            String group = jobId.equals(jobs.get(0)) ? jobId : shared;
            workers.add(pool.submit(() -> race(ledger, ticking, jobId, group, successes, history)));
        }
        try {
            HangGuard.awaitAll(workers, answered::get, HANG);
        } finally {
            pool.shutdownNow();
        }

        for (String jobId : jobs) {
            for (int round = 0; round < rounds(); round++) {
                RunKey key = key(jobId, round);
                assertThat(successes.get(key)).as("successes of %s", key).hasValue(1);
                assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
            }
        }
        assertThat(history.size()).isEqualTo(jobs.size() * rounds());
        history.assertNoOverlap();
    }

    private void race(
            RunLedger ledger,
            MutableClock ticking,
            String jobId,
            String group,
            Map<RunKey, AtomicInteger> successes,
            LeaseHistory history) {
        race(ledger, ticking, jobId, group, successes, history, false);
    }

    /** As above; with {@code underHolds}, a claim may also meet a maintenance hold and try again. */
    private void race(
            RunLedger ledger,
            MutableClock ticking,
            String jobId,
            String group,
            Map<RunKey, AtomicInteger> successes,
            LeaseHistory history,
            boolean underHolds) {
        for (int round = 0; round < rounds(); round++) {
            RunKey key = key(jobId, round);
            ClaimRequest request = ClaimRequest.scheduled(
                            key, 1, 3, ticking.peek().plus(Duration.ofHours(1)))
                    .inGroup(group);
            while (true) {
                ClaimResult result = ledger.claim(request);
                answered.incrementAndGet();

                if (result instanceof ClaimResult.Claimed claimed) {
                    long start = history.tick();
                    long end = history.tick();
                    CompletionResult done = ledger.complete(claimed.claim(), new Outcome.Succeeded(null));
                    history.held(claimed.claim().lease(), start, end);
                    if (done instanceof CompletionResult.Completed completed) {
                        assertThat(completed.record().finishedAt())
                                .as("committed within its lease, by the ledger's clock")
                                .isBefore(claimed.claim().lease().expiresAt());
                        successes.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                    }
                    break;
                }
                if (result instanceof ClaimResult.AlreadyDone) {
                    break;
                }
                if (underHolds && result instanceof UnderMaintenance) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                    continue;
                }
                assertThat(result).isInstanceOfAny(Busy.class, ClaimResult.InProgressElsewhere.class);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
    }

    /**
     * A command's hold (decision 0036) taken, renewed and given back over and over while four threads
     * start jobs of the same group: each start waits for the hold or the hold waits for the job, never
     * both at once (the tenures, on one logical order, never overlap), and every occurrence still
     * succeeds exactly once after the holds.
     */
    @Test
    void aCommandHoldRacingJobStarts_neverHoldsTheGroupWhileAJobRunsInIt() throws Exception {
        MutableClock ticking = new MutableClock(START, Duration.ofMillis(1));
        RunLedger ledger = new LedgerEngine(concurrentStore(), ticking, tokens, Retention.DEFAULT, ticking::advance);
        String group = job("held");
        List<String> jobs = List.of(job("h1"), job("h2"), job("h3"), job("h4"));
        Map<RunKey, AtomicInteger> successes = new ConcurrentHashMap<>();
        LeaseHistory history = new LeaseHistory();
        AtomicBoolean jobsDone = new AtomicBoolean();
        AtomicInteger holds = new AtomicInteger();

        ExecutorService pool = Executors.newFixedThreadPool(jobs.size() + 1);
        List<Future<?>> workers = new ArrayList<>();
        for (String jobId : jobs) {
            workers.add(pool.submit(() -> race(ledger, ticking, jobId, group, successes, history, true)));
        }
        Future<?> holder = pool.submit(() -> {
            while (!jobsDone.get() || holds.get() == 0) {
                MaintenanceHold hold = new MaintenanceHold(
                                "load", "loader", ticking.peek().plus(Duration.ofHours(1)))
                        .runningCommand("./load.sh");
                MaintenanceReport report = ledger.maintenanceOn(
                        new MaintenanceRequest(List.of(group), hold, Duration.ofMillis(50), Duration.ofMillis(10)));
                answered.incrementAndGet();
                if (!report.complete()) {
                    ledger.releaseMaintenance(report.taken());
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                    continue;
                }
                Lease lease = report.taken().getFirst();
                long start = history.tick();
                for (int renewal = 0; renewal < 3; renewal++) {
                    lease = ledger.extend(lease, lease.expiresAt().plus(Duration.ofMinutes(1)))
                            .orElseThrow(() -> new AssertionError("a renewal of our own hold was refused"));
                }
                long end = history.tick();
                assertThat(ledger.releaseMaintenance(List.of(lease))).containsExactly(group);
                history.held(lease, start, end);
                holds.incrementAndGet();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        });
        try {
            HangGuard.awaitAll(workers, answered::get, HANG);
            jobsDone.set(true);
            HangGuard.awaitAll(List.of(holder), answered::get, HANG);
        } finally {
            pool.shutdownNow();
        }

        assertThat(holds.get()).as("holds taken between the job starts").isPositive();
        for (String jobId : jobs) {
            for (int round = 0; round < rounds(); round++) {
                assertThat(successes.get(key(jobId, round)))
                        .as("successes of %s", key(jobId, round))
                        .hasValue(1);
            }
        }
        history.assertNoOverlap();
    }

    /**
     * Six operators turn maintenance on for the same groups at once, each with a hold of its own (issue
     * 24, 14b: all six were told the hold was theirs, and the last write won).
     */
    @Test
    void sixOperatorsTurningMaintenanceOnAtOnce_exactlyOneHoldsEveryGroup_andTheOthersAreRefusedNamingItsHold()
            throws Exception {
        MutableClock ticking = new MutableClock(START, Duration.ofMillis(1));
        RunLedger ledger = new LedgerEngine(concurrentStore(), ticking, tokens, Retention.DEFAULT, ticking::advance);
        int operators = 6;
        ExecutorService pool = Executors.newFixedThreadPool(operators);
        try {
            for (int round = 0; round < rounds(); round++) {
                List<String> groups = List.of(job(round + "-a"), job(round + "-b"), job(round + "-c"));
                CountDownLatch go = new CountDownLatch(1);
                List<Future<MaintenanceReport>> calls = new ArrayList<>();
                for (int operator = 0; operator < operators; operator++) {
                    MaintenanceHold hold = new MaintenanceHold(
                            "reason " + operator,
                            "operator-" + operator,
                            START.plus(Duration.ofMinutes(10L * (operator + 1))));
                    calls.add(pool.submit(() -> {
                        go.await();
                        return ledger.maintenanceOn(maintenanceOn(groups, hold));
                    }));
                }
                go.countDown();
                List<MaintenanceReport> reports = new ArrayList<>();
                for (Future<MaintenanceReport> call : calls) {
                    reports.add(call.get(2, TimeUnit.MINUTES));
                }

                List<MaintenanceReport> holding =
                        reports.stream().filter(MaintenanceReport::complete).toList();
                assertThat(holding).as("round %d: told they hold", round).hasSize(1);
                MaintenanceReport winner = holding.get(0);
                assertThat(winner.taken()).extracting(Lease::group).containsExactlyInAnyOrderElementsOf(groups);
                for (String group : groups) {
                    assertThat(ledger.maintenance(group))
                            .as("round %d: %s", round, group)
                            .contains(winner.hold());
                    assertThat(ledger.lock(group).leaseOwner())
                            .as("round %d: %s held by the winner's lease", round, group)
                            .isEqualTo(winner.taken().get(0).ownerToken());
                }
                for (MaintenanceReport loser : reports) {
                    if (loser != winner) {
                        assertThat(loser.refused())
                                .as("round %d: %s", round, loser.hold().setBy())
                                .hasValueSatisfying(r -> assertThat(r.hold()).isEqualTo(winner.hold()));
                        assertThat(loser.taken()).isEmpty();
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The interleaving that could leave groups half-held: bob looks at a (a job holds it), then alice
     * takes a (b is still busy, so she is partly on), then b's job ends and bob takes b. Bob looks
     * again after his last take, meets alice's hold and gives b back.
     */
    @Test
    void maintenanceOn_whenAnotherOperatorTookAGroupAfterItLookedThere_looksAgain_isRefused_andGivesBackWhatItTook() {
        RunLedger plain = ledger();
        String a = job("a");
        String b = job("b");
        Claim jobA = claimed(plain.claim(scheduled(key(a, 0))));
        Claim jobB = claimed(plain.claim(scheduled(key(b, 0))));
        MaintenanceHold alices = new MaintenanceHold("load", "alice", START.plus(Duration.ofMinutes(60)));
        AtomicBoolean once = new AtomicBoolean();
        LedgerStore interleaved = afterTakeLease(
                store(),
                grant -> grant.group().equals(a) && grant.holder().equals("bob") && once.compareAndSet(false, true),
                () -> {
                    plain.complete(jobA, new Outcome.Succeeded(null));
                    MaintenanceReport alicesOn = plain.maintenanceOn(maintenanceOn(List.of(a, b), alices));
                    assertThat(alicesOn.taken()).extracting(Lease::group).containsExactly(a);
                    plain.complete(jobB, new Outcome.Succeeded(null));
                });
        RunLedger bobs = new LedgerEngine(interleaved, clock, tokens, Retention.DEFAULT, clock::advance);

        MaintenanceReport report = bobs.maintenanceOn(
                maintenanceOn(List.of(a, b), new MaintenanceHold("repair", "bob", START.plus(Duration.ofMinutes(10)))));

        assertThat(once).isTrue();
        assertThat(report.refused()).contains(new MaintenanceRefused(a, alices));
        assertThat(report.taken()).isEmpty();
        assertThat(plain.maintenance(b)).as("bob gave b back").isEmpty();
        assertThat(plain.lock(b).leaseHeldAt(clock.peek())).isFalse();
        assertThat(plain.maintenance(a)).contains(alices);
    }

    /** The store, running {@code then} after each {@code takeLease} that {@code when} accepts. */
    private static LedgerStore afterTakeLease(LedgerStore store, Predicate<LeaseGrant> when, Runnable then) {
        return (LedgerStore) Proxy.newProxyInstance(
                LedgerStore.class.getClassLoader(), new Class<?>[] {LedgerStore.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("takeLease") && when.test((LeaseGrant) args[0])) {
                        then.run();
                    }
                    return result;
                });
    }

    @Test
    void injectedFaults_beforeSendAfterApplyAndThrottling_neverDoubleSucceedLoseOrOverstayALease() {
        FaultPlan plan = new FaultPlan(20261129L, 0.25);
        Stores stores = faultyStores(plan);
        RunLedger faulty = new LedgerEngine(stores.faulty(), clock, tokens, Retention.DEFAULT, d -> clock.advance(d));
        RunLedger clean = new LedgerEngine(stores.clean(), clock, tokens, Retention.DEFAULT, d -> clock.advance(d));
        String shared = job("shared");
        Map<RunKey, Integer> successes = new ConcurrentHashMap<>();
        List<RunKey> keys = new ArrayList<>();

        for (int occurrence = 0; occurrence < 12; occurrence++) {
            for (String jobId : List.of(job("solo"), job("a"), job("b"))) {
                RunKey key = key(jobId, occurrence);
                keys.add(key);
                String group = jobId.endsWith("solo") ? jobId : shared;
                deliverUntilSettled(faulty, key, group, occurrence, successes);
            }
        }
        plan.disable();

        assertThat(plan.injected(Fault.BEFORE_SEND)).isPositive();
        assertThat(plan.injected(Fault.AFTER_APPLY)).isPositive();
        assertThat(plan.injected(Fault.THROTTLE)).isPositive();
        for (RunKey key : keys) {
            assertThat(successes.getOrDefault(key, 0))
                    .as("reported successes of %s", key)
                    .isLessThanOrEqualTo(1);
            assertSettledOrClaimable(clean, key, successes.containsKey(key));
        }
    }

    @Test
    void responseLost_afterTheClaimWasApplied_readBackFindsOurLease_andTheRunProceeds() {
        FaultPlan plan = FaultPlan.scripted(Fault.AFTER_APPLY);
        RunLedger ledger = faultyLedger(plan);
        RunKey key = key(job("solo"), 0);

        Claim claim = claimed(ledger.claim(scheduled(key)));

        assertThat(plan.injected(Fault.AFTER_APPLY)).isEqualTo(1);
        assertThat(claim.fence()).as("applied once, not taken twice").isEqualTo(1);
        assertThat(ledger.complete(claim, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void heartbeatResponseLost_withSubMillisecondEnd_readBackRecognisesTheStoredExtension() {
        // The claim, the lost heartbeat, its read-back, then a failure for any re-send: recognising its own write, the
        // read-back must not need one.
        FaultPlan plan = FaultPlan.scripted(Fault.NONE, Fault.AFTER_APPLY, Fault.NONE, Fault.BEFORE_SEND);
        RunLedger ledger = faultyLedger(plan);
        RunKey key = key(job("long"), 0);
        Claim claim = claimed(ledger.claim(scheduled(key)));
        // A heartbeat computes its end from a clock with nanoseconds; the stores keep milliseconds.
        Instant later = claim.lease().expiresAt().plus(LEASE).plusNanos(123_456);

        Optional<Lease> extended = ledger.extend(claim.lease(), later);

        assertThat(plan.injected(Fault.AFTER_APPLY)).isEqualTo(1);
        assertThat(plan.injected(Fault.BEFORE_SEND)).as("re-sent the heartbeat").isZero();
        assertThat(extended.map(Lease::expiresAt)).contains(later.truncatedTo(ChronoUnit.MILLIS));
        assertThat(ledger.complete(claim, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void responseLost_afterTheCompletionCommitted_readBackReportsTheSuccessOnce() {
        FaultPlan plan = FaultPlan.scripted(Fault.NONE, Fault.AFTER_APPLY);
        RunLedger ledger = faultyLedger(plan);
        RunKey key = key(job("solo"), 0);

        CompletionResult done = ledger.complete(claimed(ledger.claim(scheduled(key))), new Outcome.Succeeded("x"));

        assertThat(done).isInstanceOf(CompletionResult.Completed.class);
        assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ledger.cursor(key.jobId())).contains(key.scheduledTime());
    }

    @Test
    void completionFailingBeforeSend_whileTheLeaseIsStillOurs_isSentAgain_andCommits() {
        FaultPlan plan = FaultPlan.scripted(Fault.NONE, Fault.BEFORE_SEND);
        RunLedger ledger = faultyLedger(plan);
        RunKey key = key(job("solo"), 0);

        CompletionResult done = ledger.complete(claimed(ledger.claim(scheduled(key))), new Outcome.Succeeded(null));

        assertThat(plan.injected(Fault.BEFORE_SEND)).isEqualTo(1);
        assertThat(done).isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void claimThrottled_andItsReadBackFailingToo_isAFault_leavingTheOccurrenceClaimable() {
        FaultPlan plan = FaultPlan.scripted(Fault.THROTTLE, Fault.BEFORE_SEND);
        RunLedger ledger = faultyLedger(plan);
        RunKey key = key(job("solo"), 0);

        assertThatThrownBy(() -> ledger.claim(scheduled(key))).isInstanceOf(PunctualException.class);
        assertThat(claimed(ledger.claim(scheduled(key))).attempt()).isEqualTo(1);
    }

    /**
     * A duplicate delivery of a done occurrence of a job in a shared group takes the group's lease,
     * finds the run done and gives the lease back. Whichever of its requests meets a transaction
     * conflict (real DynamoDB answers a plain write to an item inside a transaction so), it answers
     * ALREADY_DONE and leaves the group free for the next job at once.
     */
    @Test
    void transactionConflict_onAnyRequestOfADuplicateClaim_isAnsweredAndLeavesTheGroupFree() {
        String group = job("conflict-group");
        for (int request = 0; request < 6; request++) {
            String done = job("done-" + request);
            String next = job("next-" + request);
            RunLedger clean = new LedgerEngine(store(), clock, tokens, Retention.DEFAULT, clock::advance);
            RunKey key = key(done, 0);
            clean.complete(claimed(clean.claim(scheduled(key).inGroup(group))), new Outcome.Succeeded(null));
            Fault[] script = new Fault[request + 1];
            Arrays.fill(script, Fault.NONE);
            script[request] = Fault.TRANSACTION_CONFLICT;

            ClaimResult duplicate = faultyLedger(FaultPlan.scripted(script))
                    .claim(scheduled(key).inGroup(group));
            ClaimResult following = clean.claim(scheduled(key(next, 0)).inGroup(group));

            assertThat(duplicate).as("conflict on request " + request).isInstanceOf(ClaimResult.AlreadyDone.class);
            assertThat(following)
                    .as("the group after a conflict on request " + request)
                    .isInstanceOf(ClaimResult.Claimed.class);
            clean.complete(claimed(following), new Outcome.Succeeded(null));
        }
    }

    private RunLedger faultyLedger(FaultPlan plan) {
        return new LedgerEngine(faultyStores(plan).faulty(), clock, tokens, Retention.DEFAULT, clock::advance);
    }

    /** One occurrence delivered again and again (as the retry layers do) until it is done or exhausted. */
    private void deliverUntilSettled(
            RunLedger ledger, RunKey key, String group, int occurrence, Map<RunKey, Integer> successes) {
        for (int delivery = 1; delivery <= 30; delivery++) {
            ClaimRequest request = ClaimRequest.scheduled(
                            key, delivery, 40, clock.peek().plus(Duration.ofMinutes(1)))
                    .inGroup(group);
            try {
                ClaimResult result = ledger.claim(request);
                if (result instanceof ClaimResult.Claimed claimed) {
                    boolean jobFails = (occurrence + delivery) % 5 == 0;
                    Outcome outcome = jobFails ? new Outcome.Failed("job failed") : new Outcome.Succeeded(null);
                    CompletionResult done = ledger.complete(claimed.claim(), outcome);
                    if (done instanceof CompletionResult.Completed c
                            && c.record().status() == RunStatus.SUCCEEDED) {
                        successes.merge(key, 1, Integer::sum);
                    }
                } else if (result instanceof ClaimResult.AlreadyDone
                        || result instanceof ClaimResult.AttemptsExhausted) {
                    return;
                } else {
                    assertLeaseStillValid(result);
                    clock.advance(Duration.ofMinutes(1));
                }
            } catch (PunctualException fault) {
                // The invocation fails and is delivered again, as Lambda's retries would.
                clock.advance(Duration.ofSeconds(1));
            }
        }
    }

    /** A lease that blocks a claim must still be within its deadline: none outlives its expiry. */
    private void assertLeaseStillValid(ClaimResult blocked) {
        Instant until = switch (blocked) {
            case Busy busy -> busy.until();
            case ClaimResult.InProgressElsewhere elsewhere -> elsewhere.until();
            default -> throw new AssertionError("unexpected " + blocked);
        };
        assertThat(until).isAfter(clock.peek());
    }

    private void assertSettledOrClaimable(RunLedger clean, RunKey key, boolean reportedSuccess) {
        RunRecord stored = clean.run(key).orElse(null);
        if (reportedSuccess) {
            assertThat(stored).isNotNull();
            assertThat(stored.status()).as("a reported success is stored").isEqualTo(RunStatus.SUCCEEDED);
            return;
        }
        if (stored != null && stored.status() == RunStatus.SUCCEEDED) {
            return;
        }
        if (stored != null && (stored.status() == RunStatus.FAILED || stored.status() == RunStatus.ABANDONED)) {
            assertThat(stored.reason() != null || stored.errorSummary() != null)
                    .as("failure of %s has a reason", key)
                    .isTrue();
        }
        clock.advance(Duration.ofMinutes(2));
        ClaimResult again =
                clean.claim(ClaimRequest.scheduled(key, 99, 99, clock.peek().plus(LEASE))
                        .inGroup(key.jobId().endsWith("solo") ? key.jobId() : job("shared")));
        assertThat(again).as("%s (stored %s) is still claimable", key, stored).isInstanceOf(ClaimResult.Claimed.class);
        clean.complete(((ClaimResult.Claimed) again).claim(), new Outcome.Succeeded(null));
    }
}
