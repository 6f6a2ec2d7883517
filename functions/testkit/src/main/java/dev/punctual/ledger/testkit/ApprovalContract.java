package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Approval;
import dev.punctual.ledger.ApprovalPlan;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.SkipResult;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.Unapproved;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An operator's approval of one occurrence (decision 0041), run against every store: an occurrence of a
 * job needing approval runs only with one, on every claim path; an approval is used once; of an approval
 * and a delivery racing, either the approval came first and the occurrence ran with it, or the delivery
 * came first and recorded UNAPPROVED, and the approval then stands over that skip for a manual run; a job
 * needing none sends what it sent before.
 */
public abstract class ApprovalContract {

    private static final Instant START = Instant.parse("2026-11-29T06:00:00Z");
    private static final Instant OCCURRENCES_FROM = START.minus(Duration.ofHours(1));
    private static final Duration LEASE = Duration.ofMinutes(5);

    /** A name, as {@code --by} takes it. */
    private static final String OPS = "ops-oncall";

    private static final String WHY = "checked the list of accounts to close";
    private static final String PREVIEW = "would close 12 accounts";

    protected final MutableClock clock = new MutableClock(START);
    private final String prefix = SuitePrefix.fresh('a');
    private final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test; each test uses its own job ids, so one table may serve a whole class. */
    protected abstract LedgerStore store();

    /** A store on its own connection for the races (DynamoDB: a client of its own). */
    protected abstract LedgerStore concurrentStore();

    /** Rounds of each race; fewer against the emulator, which is slower. */
    protected abstract int rounds();

    private RunLedger ledger() {
        return ledger(store());
    }

    private RunLedger ledger(LedgerStore store) {
        return new LedgerEngine(store, clock, tokens, Retention.DEFAULT, clock::advance);
    }

    private String job(String name) {
        return prefix + "-" + name;
    }

    private static RunKey key(String job, int minute) {
        return new RunKey(job, OCCURRENCES_FROM.plus(Duration.ofMinutes(minute)));
    }

    private ClaimRequest needingApproval(RunKey key) {
        return ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(LEASE)).needingApproval();
    }

    private static Claim claimed(ClaimResult result) {
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    private static RunRecord planned(ApprovalPlan plan) {
        assertThat(plan).isInstanceOf(ApprovalPlan.Planned.class);
        return ((ApprovalPlan.Planned) plan).record();
    }

    private ApprovalPlan approve(RunLedger ledger, RunKey key) {
        return ledger.approve(key, OPS, WHY, PREVIEW);
    }

    private static void succeed(RunLedger ledger, ClaimResult result) {
        assertThat(ledger.complete(claimed(result), new Outcome.Succeeded(null)))
                .isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void approvedOccurrence_runsOnEveryJobClaimPath_andTheApprovalIsUsedByThatClaim() {
        RunLedger ledger = ledger();
        RunKey own = key(job("own"), 1);
        RunKey member = key(job("member"), 1);
        RunRecord stored = planned(approve(ledger, own));
        planned(approve(ledger, member));

        assertThat(stored.plannedApproval()).contains(new Approval(OPS, WHY, START, PREVIEW));
        assertThat(stored.status()).as("not run yet, no attempt").isEqualTo(RunStatus.SKIPPED);
        assertThat(ledger.approvalsAhead(own.jobId())).containsExactly(stored);

        succeed(ledger, ledger.claim(needingApproval(own)));
        succeed(ledger, ledger.claim(needingApproval(member).inGroup(job("shared"))));

        assertThat(ledger.run(own).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ledger.run(own).orElseThrow().plannedApproval()).as("used").isEmpty();
        assertThat(ledger.lock(own.jobId()).approvals())
                .as("the mark went with the claim")
                .isEmpty();
        assertThat(ledger.lock(member.jobId()).approvals()).isEmpty();
        assertThat(ledger.approvalsAhead(own.jobId())).isEmpty();
    }

    @Test
    void approvedEntityOccurrence_runsInOrder_onTheGeneralPath_andUnderTheSharedLease() {
        RunLedger ledger = ledger();
        String group = job("tenant");
        RunKey first = key(group + ":acme", 1);
        RunKey inOrder = key(group + ":acme", 2);
        RunKey shared = key(group + ":beta", 1);
        planned(approve(ledger, first));
        planned(approve(ledger, inOrder));
        planned(approve(ledger, shared));

        succeed(ledger, ledger.claim(needingApproval(first).onEntityLease(group, Optional.empty())));
        succeed(
                ledger,
                ledger.claim(needingApproval(inOrder).onEntityLease(group, Optional.of(first.scheduledTime()))));
        succeed(ledger, ledger.claim(needingApproval(shared).inGroup(group)));

        assertThat(ledger.lock(first.jobId()).approvals()).isEmpty();
        assertThat(ledger.run(inOrder).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ledger.run(shared).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void occurrenceWithoutApproval_isRefusedOnEveryClaimPath_writingNothing_andLeavesNoLeaseHeld() {
        RunLedger ledger = ledger();
        RunKey own = key(job("own"), 1);
        RunKey member = key(job("member"), 1);
        RunKey entity = key(job("tenant") + ":acme", 1);

        assertThat(ledger.claim(needingApproval(own))).isEqualTo(new Unapproved(Optional.empty()));
        assertThat(ledger.claim(needingApproval(member).inGroup(job("shared")))).isInstanceOf(Unapproved.class);
        assertThat(ledger.claim(needingApproval(entity).onEntityLease(job("tenant"), Optional.empty())))
                .isInstanceOf(Unapproved.class);
        assertThat(ledger.claim(needingApproval(own).forced(Trigger.MANUAL))).isInstanceOf(Unapproved.class);

        assertThat(ledger.run(own)).isEmpty();
        assertThat(ledger.run(member)).isEmpty();
        assertThat(ledger.lock(own.jobId()).leaseHeldAt(clock.peek()))
                .as("own group")
                .isFalse();
        assertThat(ledger.lock(job("shared")).leaseHeldAt(clock.peek()))
                .as("shared group")
                .isFalse();
        assertThat(ledger.lock(entity.jobId()).leaseHeldAt(clock.peek()))
                .as("entity")
                .isFalse();
        assertThat(ledger.cursor(own.jobId())).isEmpty();
    }

    @Test
    void approvalUsedOnce_aForcedRerunOrReplayOfTheSuccessIsRefused_andCannotBeApprovedAgain() {
        RunLedger ledger = ledger();
        RunKey key = key(job("once"), 1);
        planned(approve(ledger, key));
        succeed(ledger, ledger.claim(needingApproval(key)));

        assertThat(ledger.claim(needingApproval(key)))
                .as("a duplicate delivery")
                .isInstanceOf(ClaimResult.AlreadyDone.class);
        assertThat(ledger.claim(needingApproval(key).forced(Trigger.MANUAL))).isInstanceOf(Unapproved.class);
        assertThat(ledger.claim(needingApproval(key).forced(Trigger.REPLAY))).isInstanceOf(Unapproved.class);
        assertThat(approve(ledger, key)).isInstanceOf(ApprovalPlan.AlreadyStarted.class);
        assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ledger.run(key).orElseThrow().attempts()).isEqualTo(1);
    }

    @Test
    void approvalCoversTheRetriesOfItsOccurrence_butNotAForcedRunAfterTheAttemptsAreSpent() {
        RunLedger ledger = ledger();
        RunKey key = key(job("retried"), 1);
        planned(approve(ledger, key));

        for (int attempt = 1; attempt <= 3; attempt++) {
            Claim claim = claimed(ledger.claim(needingApproval(key)));
            assertThat(claim.attempt()).isEqualTo(attempt);
            ledger.complete(claim, new Outcome.Failed("boom " + attempt));
        }

        assertThat(ledger.claim(needingApproval(key))).isInstanceOf(ClaimResult.AttemptsExhausted.class);
        assertThat(ledger.claim(needingApproval(key).forced(Trigger.MANUAL))).isInstanceOf(Unapproved.class);
        assertThat(approve(ledger, key)).isInstanceOf(ApprovalPlan.AlreadyStarted.class);
    }

    @Test
    void secondApprovalOfTheSameOccurrence_keepsTheFirst() {
        RunLedger ledger = ledger();
        RunKey key = key(job("twice"), 1);
        RunRecord first = planned(approve(ledger, key));
        clock.advance(Duration.ofMinutes(1));

        assertThat(ledger.approve(key, "someone-else", "again", "would close 13 accounts"))
                .isEqualTo(new ApprovalPlan.AlreadyApproved(first));
        assertThat(ledger.lock(key.jobId()).approvals()).containsExactly(key.scheduledTime());
    }

    @Test
    void skipRecordedAfterTheClaimFoundNoApproval_isRefusedOverAnApprovalWrittenMeanwhile_andTheNextClaimRuns() {
        RunLedger ledger = ledger();
        RunKey key = key(job("meanwhile"), 1);
        assertThat(ledger.claim(needingApproval(key))).isInstanceOf(Unapproved.class);
        RunRecord approval = planned(approve(ledger, key));

        SkipResult skip = ledger.recordSkip(key, Trigger.SCHEDULED, 1, SkipReason.UNAPPROVED, "needs approval");

        assertThat(skip).isEqualTo(new SkipResult.Kept(Optional.of(approval)));
        succeed(ledger, ledger.claim(needingApproval(key)));
    }

    @Test
    void approvalAfterAnUnapprovedSkip_standsOverIt_andAManualRunOfTheOccurrenceRunsWithIt() {
        RunLedger ledger = ledger();
        RunKey key = key(job("late"), 1);
        assertThat(ledger.claim(needingApproval(key))).isInstanceOf(Unapproved.class);
        RunRecord skipped = ((SkipResult.Recorded)
                        ledger.recordSkip(key, Trigger.SCHEDULED, 1, SkipReason.UNAPPROVED, "needs approval"))
                .record();

        ApprovalPlan plan = approve(ledger, key);

        assertThat(plan).isInstanceOf(ApprovalPlan.PlannedAfterSkip.class);
        assertThat(((ApprovalPlan.PlannedAfterSkip) plan).replacedSkip()).isEqualTo(skipped);
        ClaimRequest manual = new ClaimRequest(
                        key,
                        key.jobId(),
                        Trigger.MANUAL,
                        1,
                        3,
                        false,
                        clock.peek().plus(LEASE))
                .needingApproval();
        succeed(ledger, ledger.claim(manual));
        assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void refusalOfAnApprovedOccurrence_keepsTheApproval_forTheClaimThatRunsIt() {
        RunLedger ledger = ledger();
        RunKey key = key(job("held"), 1);
        RunRecord approval = planned(approve(ledger, key));

        assertThat(ledger.recordSkip(key, Trigger.SCHEDULED, 1, SkipReason.MAINTENANCE, "held"))
                .isEqualTo(new SkipResult.Kept(Optional.of(approval)));
        succeed(ledger, ledger.claim(needingApproval(key)));
    }

    @Test
    void claimGivenBackAfterUsingTheApproval_restoresIt_andTheNextClaimUsesIt() {
        RunLedger ledger = ledger();
        RunKey key = key(job("deferred"), 1);
        RunRecord approval = planned(approve(ledger, key));
        Claim claim = claimed(ledger.claim(needingApproval(key)));

        ledger.complete(claim, new Outcome.Skipped(SkipReason.DEFERRED, "older occurrences first"));

        assertThat(ledger.run(key)).contains(approval);
        succeed(ledger, ledger.claim(needingApproval(key)));
        assertThat(ledger.run(key).orElseThrow().plannedApproval()).isEmpty();
    }

    @Test
    void approvalOfAnOccurrenceInFlight_isRefused_andOneBehindTheCursorWithNothingRecorded_too() {
        RunLedger ledger = ledger();
        RunKey key = key(job("flight"), 1);
        planned(approve(ledger, key));
        Claim claim = claimed(ledger.claim(needingApproval(key)));

        assertThat(approve(ledger, key)).as("in flight").isInstanceOf(ApprovalPlan.AlreadyStarted.class);
        ledger.complete(claim, new Outcome.Succeeded(null));
        assertThat(approve(ledger, key(key.jobId(), 0))).isEqualTo(new ApprovalPlan.BehindCursor(key.scheduledTime()));
    }

    @Test
    void operatorsSkip_winsOverAnApproval() {
        RunLedger ledger = ledger();
        RunKey key = key(job("skipped"), 1);
        ledger.skip(key, OPS, "not this one");

        assertThat(approve(ledger, key)).isInstanceOf(ApprovalPlan.OperatorSkipped.class);
        assertThat(ledger.claim(needingApproval(key))).isInstanceOf(dev.punctual.ledger.OperatorSkipped.class);
    }

    /**
     * The happy path's requests, counted at the store: a job needing no approval sends the claim and the
     * fenced completion, as before decision 0041; a job needing one sends the same two (the approval's
     * clause rides on the claim's write).
     */
    @Test
    void happyPath_isTwoRequests_withOrWithoutAnApprovalRequirement() {
        AtomicInteger sent = new AtomicInteger();
        RunLedger counted = ledger(counting(store(), sent));
        RunKey plain = key(job("plain"), 1);
        RunKey approved = key(job("approved"), 1);
        planned(approve(ledger(), approved));

        succeed(
                counted,
                counted.claim(ClaimRequest.scheduled(plain, 1, 3, clock.peek().plus(LEASE))));
        assertThat(sent.getAndSet(0)).as("no approval needed").isEqualTo(2);
        succeed(counted, counted.claim(needingApproval(approved)));
        assertThat(sent.get()).as("approval needed and given").isEqualTo(2);
    }

    @Test
    void approvalsAhead_areLimited_andMarksBehindTheCursorAreDropped() {
        RunLedger ledger = ledger();
        String job = job("many");
        for (int minute = 1; minute <= 50; minute++) {
            planned(approve(ledger, key(job, minute)));
        }

        assertThat(approve(ledger, key(job, 51))).isEqualTo(new ApprovalPlan.TooMany(50));
        succeed(ledger, ledger.claim(needingApproval(key(job, 50))));
        planned(approve(ledger, key(job, 52)));
        assertThat(ledger.lock(job).approvals())
                .as("marks behind the cursor dropped, the used one gone")
                .containsExactly(key(job, 52).scheduledTime());
    }

    /**
     * An approval racing the delivery of its occurrence, on real threads, on the job's own group (even
     * rounds) and on a shared group (odd rounds). The delivery does what the runtime does: claim; found no
     * approval, record UNAPPROVED; that skip refused over an approval written meanwhile, claim once more.
     * Exactly one of: (a) the approval was planned first ({@code Planned}) and the occurrence ran once,
     * using it (no approval left on the run item, no mark ahead of the cursor); (b) the delivery recorded
     * UNAPPROVED first and the approval stands over that skip ({@code PlannedAfterSkip}), unused, for a
     * manual run. Never both a run and an approval left standing, never a skip with the approval used.
     */
    @Test
    void approvalRacingADelivery_eitherItRanWithTheApproval_orItWasSkippedAndTheApprovalStandsForAManualRun()
            throws Exception {
        MutableClock ticking = new MutableClock(START, Duration.ofMillis(1));
        RunLedger ledger = new LedgerEngine(concurrentStore(), ticking, tokens, Retention.DEFAULT, ticking::advance);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        int approvalsFirst = 0;
        int deliveriesFirst = 0;
        try {
            for (int round = 0; round < rounds(); round++) {
                RunKey key = key(job("race-" + round), 1);
                ClaimRequest request = ClaimRequest.scheduled(
                                key, 1, 3, ticking.peek().plus(LEASE))
                        .needingApproval();
                ClaimRequest delivery = round % 2 == 0 ? request : request.inGroup(job("race-group-" + round));
                CountDownLatch go = new CountDownLatch(1);
                Future<ApprovalPlan> approval = pool.submit(() -> {
                    go.await();
                    return ledger.approve(key, OPS, WHY, PREVIEW);
                });
                Future<Boolean> ran = pool.submit(() -> {
                    go.await();
                    return deliver(ledger, delivery);
                });
                go.countDown();
                ApprovalPlan plan = approval.get(2, TimeUnit.MINUTES);
                boolean run = ran.get(2, TimeUnit.MINUTES);
                RunRecord record = ledger.run(key).orElseThrow();

                if (plan instanceof ApprovalPlan.Planned) {
                    approvalsFirst++;
                    assertThat(run)
                            .as("round %d: approved first, so it ran", round)
                            .isTrue();
                    assertThat(record.status()).isEqualTo(RunStatus.SUCCEEDED);
                    assertThat(record.plannedApproval())
                            .as("round %d: used", round)
                            .isEmpty();
                    // The claim that read the run item (the approval landed after its slot claim was refused)
                    // replaced the approval there and left the mark, now behind the cursor: it refuses nothing,
                    // admits nothing afresh, and the next approval drops it.
                    assertThat(ledger.approvalsAhead(key.jobId())).isEmpty();
                    assertThat(ledger.lock(key.jobId()).approvals())
                            .allMatch(mark ->
                                    !mark.isAfter(ledger.cursor(key.jobId()).orElseThrow()));
                } else {
                    deliveriesFirst++;
                    assertThat(plan).as("round %d", round).isInstanceOf(ApprovalPlan.PlannedAfterSkip.class);
                    assertThat(((ApprovalPlan.PlannedAfterSkip) plan)
                                    .replacedSkip()
                                    .reason())
                            .startsWith(SkipReason.UNAPPROVED.name());
                    assertThat(run)
                            .as("round %d: delivered first, so skipped", round)
                            .isFalse();
                    assertThat(record.status()).isEqualTo(RunStatus.SKIPPED);
                    assertThat(record.plannedApproval())
                            .as("round %d: standing, unused", round)
                            .isPresent();
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(approvalsFirst + deliveriesFirst).isEqualTo(rounds());
    }

    /** The runtime's handling of one delivery (OccurrenceRunner): true when it ran the job. */
    private static boolean deliver(RunLedger ledger, ClaimRequest request) {
        boolean claimedAgain = false;
        for (int asked = 0; asked < 10_000; asked++) {
            ClaimResult result = ledger.claim(request);
            if (result instanceof ClaimResult.Claimed c) {
                return ledger.complete(c.claim(), new Outcome.Succeeded(null)) instanceof CompletionResult.Completed;
            }
            if (result instanceof Unapproved) {
                SkipResult skip =
                        ledger.recordSkip(request.key(), Trigger.SCHEDULED, 1, SkipReason.UNAPPROVED, "needs approval");
                boolean approvedMeanwhile = skip instanceof SkipResult.Kept kept
                        && kept.existing().flatMap(RunRecord::plannedApproval).isPresent();
                if (!approvedMeanwhile || claimedAgain) {
                    return false;
                }
                claimedAgain = true;
                continue;
            }
            Thread.onSpinWait(); // busy or in flight elsewhere: ask again
        }
        throw new AssertionError("no decision for " + request.key() + " after 10,000 claims");
    }

    /** The store, counting every call (each is one request, but recordMissed, which these tests never use). */
    private static LedgerStore counting(LedgerStore store, AtomicInteger sent) {
        return (LedgerStore) Proxy.newProxyInstance(
                LedgerStore.class.getClassLoader(), new Class<?>[] {LedgerStore.class}, (proxy, method, args) -> {
                    sent.incrementAndGet();
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
