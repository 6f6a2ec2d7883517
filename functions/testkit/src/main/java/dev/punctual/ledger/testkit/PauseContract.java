package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.PauseOutcome;
import dev.punctual.ledger.ResumeChoice;
import dev.punctual.ledger.ResumeOutcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An operator's pause of a job, a lock group or an entity (decision 0040), run against every store: every
 * claim path is refused in the write it already sends, a run in flight is not stopped, resume does what
 * the operator chose with the paused span, and of a pause and deliveries racing each claim is either
 * decided before the pause (and the pause reports it in flight) or refused. Standalone (it inherits no
 * other contract's tests), so a store's test class runs only these.
 */
public abstract class PauseContract {

    private static final Instant START = Instant.parse("2026-11-29T06:00:00Z");
    private static final Instant OCCURRENCES_FROM = START.minus(Duration.ofHours(1));
    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final String OPS = "ops-oncall";
    private static final String WHY = "supplier outage";

    protected final MutableClock clock = new MutableClock(START);
    private final String prefix = SuitePrefix.fresh('p');
    private final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test; each test uses its own ids, so one table may serve a whole class. */
    protected abstract LedgerStore store();

    private RunLedger ledger() {
        return new LedgerEngine(store(), clock, tokens, Retention.DEFAULT, d -> clock.advance(d));
    }

    private String job(String name) {
        return prefix + "-" + name;
    }

    private static RunKey key(String job, int minute) {
        return new RunKey(job, OCCURRENCES_FROM.plus(Duration.ofMinutes(minute)));
    }

    private ClaimRequest scheduled(RunKey key) {
        return ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(LEASE));
    }

    private static Claim claimed(ClaimResult result) {
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    private static ClaimResult.Paused paused(ClaimResult result) {
        assertThat(result).isInstanceOf(ClaimResult.Paused.class);
        return (ClaimResult.Paused) result;
    }

    private static PauseOutcome.Set set(PauseOutcome outcome) {
        assertThat(outcome).isInstanceOf(PauseOutcome.Set.class);
        return (PauseOutcome.Set) outcome;
    }

    private PauseOutcome.Set pause(RunLedger ledger, String id) {
        return set(ledger.pause(id, OPS, WHY, Optional.empty(), true));
    }

    private void succeed(RunLedger ledger, ClaimResult result) {
        assertThat(ledger.complete(claimed(result), new Outcome.Succeeded(null)))
                .isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void pausedJob_isRefusedOnTheFastPath_withWhoWhyAndSince_andHoldsNoLease_andMovesNoCursor() {
        RunLedger ledger = ledger();
        String job = job("own");
        succeed(ledger, ledger.claim(scheduled(key(job, 0))));
        pause(ledger, job);

        ClaimResult.Paused refused = paused(ledger.claim(scheduled(key(job, 1))));

        assertThat(refused.id()).isEqualTo(job);
        assertThat(refused.mark()).isEqualTo(new PauseMark(START, Optional.empty(), OPS, WHY, true));
        assertThat(refused.mark().describe()).isEqualTo("paused by " + OPS + " since " + START + ": " + WHY);
        assertThat(ledger.lock(job).leaseHeldAt(clock.peek())).isFalse();
        assertThat(ledger.cursor(job)).contains(key(job, 0).scheduledTime());
    }

    @Test
    void pauses_readsTheMarksOfMoreIdsThanOneRequestHolds_andLeavesOutItemsWithoutOne() {
        RunLedger ledger = ledger();
        List<String> ids = java.util.stream.IntStream.range(0, LedgerStore.PAUSES_PER_READ + 20)
                .mapToObj(i -> job("list" + i))
                .toList();
        String first = ids.get(0);
        String ran = ids.get(1);
        String last = ids.get(ids.size() - 1);
        Instant end = START.plus(Duration.ofHours(1));
        pause(ledger, first);
        succeed(ledger, ledger.claim(scheduled(key(ran, 0))));
        set(ledger.pause(last, OPS, WHY, Optional.of(end), false));

        java.util.Map<String, PauseMark> marks = ledger.pauses(ids);

        assertThat(marks).containsOnlyKeys(first, last);
        assertThat(marks.get(first)).isEqualTo(new PauseMark(START, Optional.empty(), OPS, WHY, true));
        assertThat(marks.get(last)).isEqualTo(new PauseMark(START, Optional.of(end), OPS, WHY, false));
        assertThat(ledger.pauses(List.of())).isEmpty();
    }

    @Test
    void pausedJob_isRefusedOnTheGeneralPath_aRetryAndAForcedManualRun_too() {
        RunLedger ledger = ledger();
        String job = job("retry");
        RunKey failed = key(job, 1);
        assertThat(ledger.complete(claimed(ledger.claim(scheduled(failed))), new Outcome.Failed("boom")))
                .isInstanceOf(CompletionResult.Completed.class);
        pause(ledger, job);

        paused(ledger.claim(scheduled(failed)));
        paused(ledger.claim(scheduled(failed).forced(Trigger.MANUAL)));
        paused(ledger.claim(scheduled(key(job, 0))));

        assertThat(ledger.run(failed).orElseThrow().attempts()).isEqualTo(1);
        assertThat(ledger.lock(job).leaseHeldAt(clock.peek())).isFalse();
    }

    @Test
    void pausedGroup_refusesEveryMember_andTheGroupsMemberPausedAlone_refusesOnlyIt() {
        RunLedger ledger = ledger();
        String group = job("shared");
        String a = job("a");
        String b = job("b");
        pause(ledger, group);

        assertThat(paused(ledger.claim(scheduled(key(a, 1)).inGroup(group))).id())
                .isEqualTo(group);
        assertThat(paused(ledger.claim(scheduled(key(b, 1)).inGroup(group))).id())
                .isEqualTo(group);
        assertThat(ledger.resume(group, ResumeChoice.CATCH_UP)).isInstanceOf(ResumeOutcome.Resumed.class);

        pause(ledger, a);
        ClaimResult.Paused member = paused(ledger.claim(scheduled(key(a, 1)).inGroup(group)));
        assertThat(member.id()).as("the member's own item refused it").isEqualTo(a);
        assertThat(ledger.lock(group).leaseHeldAt(clock.peek()))
                .as("the group's lease given back")
                .isFalse();
        succeed(ledger, ledger.claim(scheduled(key(b, 1)).inGroup(group)));
    }

    @Test
    void pausedSharedGroupMember_isRefusedOnItsRetry_whichClaimsOnTheRunItem() {
        RunLedger ledger = ledger();
        String group = job("grp");
        String a = job("member");
        RunKey failed = key(a, 1);
        assertThat(ledger.complete(claimed(ledger.claim(scheduled(failed).inGroup(group))), new Outcome.Failed("x")))
                .isInstanceOf(CompletionResult.Completed.class);
        pause(ledger, a);

        assertThat(paused(ledger.claim(scheduled(failed).inGroup(group))).id()).isEqualTo(a);
        assertThat(ledger.run(failed).orElseThrow().attempts()).isEqualTo(1);
    }

    @Test
    void pausedEntity_isRefusedInOrderAndOnTheGeneralPath_whilePausingTheWholeJob_refusesEveryEntity() {
        RunLedger ledger = ledger();
        String job = job("tenant");
        RunKey acme0 = key(job + ":acme", 0);
        RunKey acme1 = key(job + ":acme", 1);
        RunKey beta1 = key(job + ":beta", 1);
        succeed(ledger, ledger.claim(scheduled(acme0).onEntityLease(job, Optional.empty())));
        pause(ledger, acme0.jobId());

        Optional<Instant> before = Optional.of(acme0.scheduledTime());
        assertThat(paused(ledger.claim(scheduled(acme1).onEntityLease(job, before)))
                        .id())
                .isEqualTo(acme0.jobId());
        paused(ledger.claim(scheduled(acme1).onEntityLease(job, Optional.empty())));
        ClaimResult other = ledger.claim(scheduled(beta1).onEntityLease(job, Optional.empty()));
        succeed(ledger, other);

        assertThat(ledger.resume(acme0.jobId(), ResumeChoice.CATCH_UP)).isInstanceOf(ResumeOutcome.Resumed.class);
        pause(ledger, job);
        assertThat(paused(ledger.claim(scheduled(acme1).onEntityLease(job, before)))
                        .id())
                .as("the job's group item refused it")
                .isEqualTo(job);
        paused(ledger.claim(scheduled(key(job + ":beta", 2)).onEntityLease(job, Optional.empty())));
        assertThat(ledger.lock(acme0.jobId()).leaseHeldAt(clock.peek())).isFalse();
    }

    @Test
    void runInFlight_isNotStopped_thePauseReportsIt_andItCompletes_whileTheNextIsRefused() {
        RunLedger ledger = ledger();
        String job = job("inflight");
        Claim running = claimed(ledger.claim(scheduled(key(job, 1))));

        PauseOutcome.Set set = pause(ledger, job);

        assertThat(set.runInFlight(clock.peek())).isTrue();
        assertThat(ledger.complete(running, new Outcome.Succeeded(null)))
                .isInstanceOf(CompletionResult.Completed.class);
        assertThat(ledger.run(key(job, 1)).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        paused(ledger.claim(scheduled(key(job, 2))));
        assertThat(pause(ledger, job("idle")).runInFlight(clock.peek())).isFalse();
    }

    @Test
    void secondPause_keepsTheFirst_andSaysWhose_andResumeOfNothing_isNotPaused() {
        RunLedger ledger = ledger();
        String job = job("twice");
        pause(ledger, job);

        PauseOutcome again = ledger.pause(job, "someone-else", "other", Optional.empty(), false);

        assertThat(again).isInstanceOf(PauseOutcome.AlreadyPaused.class);
        assertThat(((PauseOutcome.AlreadyPaused) again).standing().by()).isEqualTo(OPS);
        assertThat(ledger.resume(job("never"), ResumeChoice.CATCH_UP)).isInstanceOf(ResumeOutcome.NotPaused.class);
    }

    @Test
    void resumeWithCatchUp_removesTheMark_andTheSpansRecordedOccurrence_isReplayed() {
        RunLedger ledger = ledger();
        String job = job("catchup");
        succeed(ledger, ledger.claim(scheduled(key(job, 0))));
        pause(ledger, job);
        clock.advance(Duration.ofMinutes(10));
        RunKey inSpan = key(job, 70);
        paused(ledger.claim(scheduled(inSpan)));
        ledger.recordSkip(inSpan, Trigger.SCHEDULED, 1, SkipReason.PAUSED, "paused");

        ResumeOutcome resumed = ledger.resume(job, ResumeChoice.CATCH_UP);

        assertThat(resumed).isInstanceOf(ResumeOutcome.Resumed.class);
        assertThat(((ResumeOutcome.Resumed) resumed).after()).isEmpty();
        assertThat(ledger.lock(job).pause()).isNull();
        Claim replayed = claimed(ledger.claim(scheduled(inSpan)));
        assertThat(replayed.attempt()).isEqualTo(1);
        succeed(ledger, new ClaimResult.Claimed(replayed));
        assertThat(ledger.run(inSpan).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void resumeSkippingThePaused_keepsTheSpanRefused_andTheNextOccurrenceRuns() {
        RunLedger ledger = ledger();
        String job = job("skipspan");
        succeed(ledger, ledger.claim(scheduled(key(job, 0))));
        pause(ledger, job);
        RunKey inSpan = key(job, 70); // after the pause's start (START = OCCURRENCES_FROM + 60 min)
        clock.advance(Duration.ofMinutes(10));
        paused(ledger.claim(scheduled(inSpan)));
        clock.advance(Duration.ofMinutes(20));

        ResumeOutcome resumed = ledger.resume(job, ResumeChoice.SKIP_PAUSED);

        PauseMark kept = ((ResumeOutcome.Resumed) resumed).after().orElseThrow();
        assertThat(kept.until()).contains(START.plus(Duration.ofMinutes(30)));
        assertThat(kept.catchUp()).isFalse();
        paused(ledger.claim(scheduled(inSpan)));
        clock.advance(Duration.ofMinutes(1));
        succeed(ledger, ledger.claim(scheduled(key(job, 91))));
        assertThat(ledger.cursor(job)).contains(key(job, 91).scheduledTime());
        claimed(ledger.claim(scheduled(key(job, 50))));
    }

    @Test
    void pauseUntil_lapsesOnTheLedgersClock_withCatchUp_theSpanRuns_withoutIt_onlyWhatFollows() {
        RunLedger ledger = ledger();
        String caught = job("until-catch");
        String skipped = job("until-skip");
        Instant until = START.plus(Duration.ofMinutes(20));
        set(ledger.pause(caught, OPS, WHY, Optional.of(until), true));
        set(ledger.pause(skipped, OPS, WHY, Optional.of(until), false));
        RunKey inSpan = key(caught, 70);
        clock.advance(Duration.ofMinutes(10));
        paused(ledger.claim(scheduled(inSpan)));
        paused(ledger.claim(scheduled(key(skipped, 70))));
        clock.advance(Duration.ofMinutes(9));
        paused(ledger.claim(scheduled(key(caught, 75))));

        clock.advance(Duration.ofMinutes(1));

        claimed(ledger.claim(scheduled(inSpan)));
        paused(ledger.claim(scheduled(key(skipped, 70))));
        paused(ledger.claim(scheduled(key(skipped, 79))));
        claimed(ledger.claim(scheduled(key(skipped, 80))));
        assertThat(ledger.pause(skipped, OPS, "again", Optional.empty(), true))
                .as("an ended pause does not hold: a new one replaces it")
                .isInstanceOf(PauseOutcome.Set.class);
    }

    /**
     * Real threads: per round a fresh occurrence of a fresh job, three deliveries and a pause released
     * together. A delivery claimed before the pause's write exactly when the pause's answer shows it in
     * flight (one wins); a delivery started after {@code pause} returned is always refused.
     */
    @Test
    void pauseRacingDeliveries_eachDeliveryRanOrWasRefused_andTheSecondWaveIsAlwaysRefused() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 8; round++) {
                RunLedger ledger = ledger();
                String job = job("race" + round);
                RunKey key = key(job, 1);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<ClaimResult>> deliveries = new ArrayList<>();
                for (int d = 0; d < 3; d++) {
                    deliveries.add(pool.submit(() -> {
                        go.await();
                        return ledger.claim(scheduled(key));
                    }));
                }
                Future<PauseOutcome> pausing = pool.submit(() -> {
                    go.await();
                    return ledger.pause(job, OPS, WHY, Optional.empty(), true);
                });
                go.countDown();
                PauseOutcome.Set set = set(pausing.get(30, TimeUnit.SECONDS));
                long ran = 0;
                for (Future<ClaimResult> f : deliveries) {
                    ClaimResult r = f.get(30, TimeUnit.SECONDS);
                    assertThat(r)
                            .isInstanceOfAny(
                                    ClaimResult.Claimed.class,
                                    ClaimResult.Paused.class,
                                    ClaimResult.InProgressElsewhere.class);
                    ran += r instanceof ClaimResult.Claimed ? 1 : 0;
                }
                assertThat(ran).as("round " + round + ": one claim at most").isLessThanOrEqualTo(1);
                assertThat(set.runInFlight(clock.peek()))
                        .as("round " + round + ": the pause saw the run exactly when one was claimed")
                        .isEqualTo(ran == 1);
                paused(ledger.claim(scheduled(key(job, 2))));
                if (ran == 0) {
                    paused(ledger.claim(scheduled(key)));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
