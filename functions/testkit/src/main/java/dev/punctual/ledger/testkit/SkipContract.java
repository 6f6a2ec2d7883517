package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.OperatorSkipped;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipPlan;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.SkipResult;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.Unskip;
import dev.punctual.ledger.spi.LedgerEngine;
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
 * An operator's skip of one occurrence (decision 0033), run against every store: a skipped occurrence
 * cannot start on any claim path, a started one cannot be skipped, and of a skip and claims racing
 * exactly one side wins; unskip removes only a skip no delivery has met.
 */
public abstract class SkipContract extends EntityDeleteContract {

    /** A name, as {@code --by} takes it: an e-mail address would be stored as {@code [email]} (issue 40). */
    private static final String OPS = "ops-oncall";

    private static final String WHY = "planned outage of the payment provider";

    private ClaimRequest inSharedGroup(RunKey key) {
        return scheduled(key).inGroup(job("shared"));
    }

    private static RunRecord skippedRecord(ClaimResult result) {
        assertThat(result).isInstanceOf(OperatorSkipped.class);
        return ((OperatorSkipped) result).record();
    }

    private static RunRecord planned(SkipPlan plan) {
        assertThat(plan).isInstanceOf(SkipPlan.Planned.class);
        return ((SkipPlan.Planned) plan).record();
    }

    @Test
    void skippedOccurrence_isRefusedOnEveryJobClaimPath_forcedOrNot_withWhoAndWhy_andLeavesNoLeaseHeld() {
        RunLedger ledger = ledger();
        RunKey own = key(job("own"), 1);
        RunKey shared = key(job("member"), 1);
        planned(ledger.skip(own, OPS, WHY));
        planned(ledger.skip(shared, OPS, WHY));

        RunRecord refused = skippedRecord(ledger.claim(scheduled(own)));
        assertThat(refused.skip()).contains(new OperatorSkip(OPS, WHY, START, null));
        assertThat(refused.status()).isEqualTo(RunStatus.SKIPPED);
        assertThat(refused.reason())
                .startsWith(SkipReason.OPERATOR_SKIPPED.name())
                .contains(OPS, WHY);
        skippedRecord(ledger.claim(inSharedGroup(shared)));
        skippedRecord(ledger.claim(scheduled(own).forced(Trigger.MANUAL)));
        skippedRecord(ledger.claim(scheduled(own).forced(Trigger.REPLAY)));

        assertThat(ledger.lock(own.jobId()).leaseHeldAt(clock.peek()))
                .as("own group")
                .isFalse();
        assertThat(ledger.lock(job("shared")).leaseHeldAt(clock.peek()))
                .as("shared group")
                .isFalse();
        assertThat(ledger.cursor(own.jobId()))
                .as("a skip does not move the cursor")
                .isEmpty();
        assertThat(ledger.run(own).orElseThrow().skip())
                .map(OperatorSkip::planned)
                .contains(true);
    }

    @Test
    void skippedEntityOccurrence_isRefusedInOrder_onTheGeneralPath_andUnderTheSharedLease() {
        Tenants t = tenants();
        RunKey t0 = t.of("acme", 0);
        RunKey t1 = t.of("acme", 1);
        t.succeed(claimed(t.claimGeneral(t0)));
        planned(t.ledger.skip(t1, OPS, WHY));

        assertThat(skippedRecord(t.claimInOrder(t1)).skip())
                .map(OperatorSkip::by)
                .contains(OPS);
        skippedRecord(t.claimGeneral(t1));
        skippedRecord(t.claimOnSharedLease(t1));
        assertThat(t.ledger.lock(t1.jobId()).leaseHeldAt(clock.peek())).isFalse();
        assertThat(t.claimInOrder(t.of("beta", 1)))
                .as("another entity of the job")
                .isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void occurrenceInFlight_orFinished_cannotBeSkipped_andItsRunIsUntouched() {
        RunLedger ledger = ledger();
        RunKey key = key(job("started"), 1);
        Claim claim = claimed(ledger.claim(scheduled(key)));

        assertThat(ledger.skip(key, OPS, WHY)).as("in flight").isInstanceOf(SkipPlan.AlreadyStarted.class);
        assertThat(ledger.complete(claim, new Outcome.Failed("boom"))).isInstanceOf(CompletionResult.Completed.class);
        SkipPlan afterFailure = ledger.skip(key, OPS, WHY);

        assertThat(afterFailure).isInstanceOf(SkipPlan.AlreadyStarted.class);
        assertThat(((SkipPlan.AlreadyStarted) afterFailure).record())
                .map(RunRecord::status)
                .contains(RunStatus.FAILED);
        assertThat(ledger.run(key).orElseThrow().skip()).isEmpty();
        assertThat(claimed(ledger.claim(scheduled(key))).attempt())
                .as("its retry still runs")
                .isEqualTo(2);
    }

    @Test
    void occurrenceAtOrBehindTheCursor_cannotBeSkipped_theAnswerNamesTheCursor() {
        RunLedger ledger = ledger();
        String job = job("behind");
        RunKey done = key(job, 5);
        ledger.complete(claimed(ledger.claim(scheduled(done))), new Outcome.Succeeded(null));

        assertThat(ledger.skip(done, OPS, WHY)).isEqualTo(new SkipPlan.BehindCursor(done.scheduledTime()));
        assertThat(ledger.skip(key(job, 4), OPS, WHY)).isEqualTo(new SkipPlan.BehindCursor(done.scheduledTime()));
        planned(ledger.skip(key(job, 6), OPS, WHY));
    }

    @Test
    void secondSkipOfTheSameOccurrence_keepsTheFirst_andSaysWhoSetIt() {
        RunLedger ledger = ledger();
        RunKey key = key(job("twice"), 1);
        RunRecord first = planned(ledger.skip(key, OPS, WHY));

        SkipPlan again = ledger.skip(key, "someone-else", "another reason");

        assertThat(again).isEqualTo(new SkipPlan.AlreadySkipped(first));
        assertThat(ledger.run(key)).contains(first);
    }

    @Test
    void refusalRecordedOnASkippedOccurrence_keepsTheOperatorsSkip() {
        RunLedger ledger = ledger();
        RunKey key = key(job("refusal"), 1);
        RunRecord skip = planned(ledger.skip(key, OPS, WHY));

        SkipResult recorded = ledger.recordSkip(key, Trigger.SCHEDULED, 1, SkipReason.DISABLED, "schedules off");

        assertThat(recorded).isEqualTo(new SkipResult.Kept(Optional.of(skip)));
        assertThat(ledger.run(key)).contains(skip);
    }

    @Test
    void skipOverARecordedRefusal_isPlanned_theOccurrenceWasStillClaimable() {
        RunLedger ledger = ledger();
        RunKey key = key(job("after-refusal"), 1);
        ledger.recordSkip(key, Trigger.SCHEDULED, 1, SkipReason.MAINTENANCE, "restore");

        planned(ledger.skip(key, OPS, WHY));

        skippedRecord(ledger.claim(scheduled(key)));
    }

    @Test
    void unskipBeforeAnyDelivery_removesTheSkip_andTheOccurrenceRunsOnce() {
        RunLedger ledger = ledger();
        RunKey key = key(job("unskip"), 1);
        RunRecord skip = planned(ledger.skip(key, OPS, WHY));

        assertThat(ledger.unskip(key)).isEqualTo(new Unskip.Removed(skip));

        assertThat(ledger.run(key)).isEmpty();
        assertThat(ledger.skipsAhead(key.jobId())).isEmpty();
        Claim claim = claimed(ledger.claim(scheduled(key)));
        assertThat(ledger.complete(claim, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Completed.class);
        assertThat(ledger.unskip(key)).isEqualTo(new Unskip.NotSkipped(ledger.run(key)));
    }

    @Test
    void skipMetByADelivery_isActedOn_thenCannotBeUnskipped_andEveryLaterClaimIsStillRefused() {
        RunLedger ledger = ledger();
        RunKey key = key(job("acted"), 1);
        planned(ledger.skip(key, OPS, WHY));
        RunRecord met = skippedRecord(ledger.claim(scheduled(key)));
        clock.advance(Duration.ofSeconds(3));

        RunRecord acted = ledger.actOnSkip(met, Trigger.SCHEDULED, 2).orElseThrow();

        assertThat(acted.skip().orElseThrow().actedAt()).isEqualTo(START.plusSeconds(3));
        assertThat(acted.schedulerAttempt()).isEqualTo(2);
        assertThat(ledger.run(key)).contains(acted);
        assertThat(ledger.actOnSkip(met, Trigger.SCHEDULED, 3)).as("acted once").isEmpty();
        assertThat(ledger.unskip(key)).isEqualTo(new Unskip.AlreadyActed(acted));
        assertThat(skippedRecord(ledger.claim(scheduled(key)))).isEqualTo(acted);
    }

    @Test
    void unskipBeforeTheDeliveryActs_leavesNothingToActOn_andTheClaimThenRuns() {
        RunLedger ledger = ledger();
        RunKey key = key(job("unskip-first"), 1);
        planned(ledger.skip(key, OPS, WHY));
        RunRecord met = skippedRecord(ledger.claim(scheduled(key)));

        ledger.unskip(key);

        assertThat(ledger.actOnSkip(met, Trigger.SCHEDULED, 1)).isEmpty();
        claimed(ledger.claim(scheduled(key)));
    }

    @Test
    void skipsAheadOfTheCursor_areLimited_andThoseThePassingCursorLeftBehindNoLongerCount() {
        RunLedger ledger = ledger();
        String job = job("many");
        List<Instant> set = new ArrayList<>();
        for (int minute = 1; minute <= 50; minute++) {
            set.add(planned(ledger.skip(key(job, minute), OPS, WHY)).key().scheduledTime());
        }

        assertThat(ledger.skip(key(job, 51), OPS, WHY)).isEqualTo(new SkipPlan.TooMany(50));
        assertThat(ledger.skipsAhead(job))
                .extracting(r -> r.key().scheduledTime())
                .containsExactlyElementsOf(set);

        ledger.complete(claimed(ledger.claim(scheduled(key(job, 55)))), new Outcome.Succeeded(null));
        planned(ledger.skip(key(job, 56), OPS, WHY));
        assertThat(ledger.skipsAhead(job)).extracting(RunRecord::key).containsExactly(key(job, 56));
        assertThat(ledger.lock(job).skips())
                .as("marks behind the cursor dropped")
                .containsExactly(key(job, 56).scheduledTime());
    }

    /**
     * A skip racing three deliveries of the same occurrence, on the job's own group and on a shared one:
     * exactly one side wins. Either the skip is planned and nothing ever
     * claimed the occurrence, or a claim won, the skip was refused as started, and the run succeeded once.
     */
    @Test
    void skipRacingClaims_exactlyOneSideWins_neverASkipAndARun() throws Exception {
        MutableClock ticking = new MutableClock(START, Duration.ofMillis(1));
        RunLedger ledger = new LedgerEngine(concurrentStore(), ticking, tokens, Retention.DEFAULT, ticking::advance);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        int skipsWon = 0;
        int claimsWon = 0;
        try {
            for (int round = 0; round < rounds(); round++) {
                String job = job("race-" + round);
                RunKey key = key(job, 1);
                // Even rounds race the job's own group (the one-write fast path), odd rounds a shared group
                // (the slot claimed under the group's lease); three deliveries of the occurrence each.
                List<ClaimRequest> paths = new ArrayList<>();
                for (int delivery = 1; delivery <= 3; delivery++) {
                    ClaimRequest request = ClaimRequest.scheduled(
                            key, delivery, 3, ticking.peek().plus(LEASE));
                    paths.add(round % 2 == 0 ? request : request.inGroup(job("race-group-" + round)));
                }
                CountDownLatch go = new CountDownLatch(1);
                Future<SkipPlan> skip = pool.submit(() -> {
                    go.await();
                    return ledger.skip(key, OPS, WHY);
                });
                List<Future<Boolean>> claims = new ArrayList<>();
                for (ClaimRequest path : paths) {
                    claims.add(pool.submit(() -> {
                        go.await();
                        return claimUntilDecided(ledger, path);
                    }));
                }
                go.countDown();
                SkipPlan plan = skip.get(2, TimeUnit.MINUTES);
                int ran = 0;
                for (Future<Boolean> claim : claims) {
                    ran += claim.get(2, TimeUnit.MINUTES) ? 1 : 0;
                }

                if (plan instanceof SkipPlan.Planned) {
                    skipsWon++;
                    assertThat(ran)
                            .as("round %d: runs of a skipped occurrence", round)
                            .isZero();
                    assertThat(ledger.run(key).orElseThrow().skip()).isPresent();
                } else {
                    claimsWon++;
                    // Refused as started, or (the run already succeeded and moved the cursor) as behind it.
                    assertThat(plan)
                            .as("round %d", round)
                            .isInstanceOfAny(SkipPlan.AlreadyStarted.class, SkipPlan.BehindCursor.class);
                    assertThat(ran).as("round %d: runs", round).isEqualTo(1);
                    assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(skipsWon + claimsWon).isEqualTo(rounds());
    }

    /** Claims until the occurrence is decided for this claimant; true when it ran the job (and succeeded). */
    private static boolean claimUntilDecided(RunLedger ledger, ClaimRequest request) {
        for (int asked = 0; asked < 10_000; asked++) {
            ClaimResult result = ledger.claim(request);
            switch (result) {
                case ClaimResult.Claimed c -> {
                    return ledger.complete(c.claim(), new Outcome.Succeeded(null))
                            instanceof CompletionResult.Completed;
                }
                case OperatorSkipped skipped -> {
                    return false;
                }
                case ClaimResult.AlreadyDone done -> {
                    return false;
                }
                default -> Thread.onSpinWait(); // busy or in flight elsewhere: ask again
            }
        }
        throw new AssertionError("no decision for " + request.key() + " after 10,000 claims");
    }

    /**
     * An unskip racing the delivery that meets the skip: either the unskip came first and the occurrence
     * runs, or the delivery acted on it and the unskip is told so; never removed and skipped, never acted
     * and run.
     */
    @Test
    void unskipRacingTheDeliveryThatMeetsIt_eitherTheOccurrenceRunsOrTheSkipTookEffect() throws Exception {
        MutableClock ticking = new MutableClock(START, Duration.ofMillis(1));
        RunLedger ledger = new LedgerEngine(concurrentStore(), ticking, tokens, Retention.DEFAULT, ticking::advance);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < rounds(); round++) {
                RunKey key = key(job("unskip-race-" + round), 1);
                planned(ledger.skip(key, OPS, WHY));
                ClaimRequest delivery =
                        ClaimRequest.scheduled(key, 1, 3, ticking.peek().plus(LEASE));
                CountDownLatch go = new CountDownLatch(1);
                Future<Unskip> unskip = pool.submit(() -> {
                    go.await();
                    return ledger.unskip(key);
                });
                Future<Boolean> ran = pool.submit(() -> {
                    go.await();
                    return deliver(ledger, delivery);
                });
                go.countDown();
                Unskip answer = unskip.get(2, TimeUnit.MINUTES);
                boolean run = ran.get(2, TimeUnit.MINUTES);

                if (answer instanceof Unskip.Removed) {
                    assertThat(run).as("round %d: unskipped, so it runs", round).isTrue();
                    assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
                } else {
                    assertThat(answer).as("round %d", round).isInstanceOf(Unskip.AlreadyActed.class);
                    assertThat(run).as("round %d: the skip took effect", round).isFalse();
                    assertThat(ledger.run(key)
                                    .orElseThrow()
                                    .skip()
                                    .orElseThrow()
                                    .planned())
                            .isFalse();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** What the runtime does with a delivery: a planned skip is acted on, or (unskipped meanwhile) claimed again. */
    private static boolean deliver(RunLedger ledger, ClaimRequest request) {
        for (int asked = 0; asked < 10_000; asked++) {
            ClaimResult result = ledger.claim(request);
            if (result instanceof ClaimResult.Claimed c) {
                return ledger.complete(c.claim(), new Outcome.Succeeded(null)) instanceof CompletionResult.Completed;
            }
            if (result instanceof OperatorSkipped skipped) {
                if (!skipped.record().skip().orElseThrow().planned()
                        || ledger.actOnSkip(skipped.record(), Trigger.SCHEDULED, 1)
                                .isPresent()) {
                    return false;
                }
            }
        }
        throw new AssertionError("no decision for " + request.key() + " after 10,000 claims");
    }
}
