package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Attempt;
import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.Due;
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
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.SkipResult;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.UnderMaintenance;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The ledger's behaviour, run against every store (in memory, and DynamoDB on the emulator). Concurrency
 * and fault scenarios live in {@link RunLedgerRaceContract}, which extends this one.
 */
public abstract class RunLedgerContract {

    protected static final Instant START = Instant.parse("2026-11-29T06:00:00Z");

    /** An hour before the clock starts, so every occurrence a test names has come due. */
    protected static final Instant OCCURRENCES_FROM = START.minus(Duration.ofHours(1));

    protected static final Duration LEASE = Duration.ofMinutes(5);

    protected final MutableClock clock = new MutableClock(START);
    protected final String prefix = SuitePrefix.fresh('j');
    protected final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test; each test uses its own job ids, so one table may serve a whole class. */
    protected abstract LedgerStore store();

    protected RunLedger ledger() {
        return ledger(clock, d -> clock.advance(d));
    }

    protected RunLedger ledger(Clock c, Sleeper sleeper) {
        return new LedgerEngine(store(), c, tokens, Retention.DEFAULT, sleeper);
    }

    protected String job(String name) {
        return prefix + "-" + name;
    }

    /** Occurrences are due: the ledger never completes a scheduled run of a future one (Due). */
    protected static RunKey key(String job, int minute) {
        return new RunKey(job, OCCURRENCES_FROM.plus(Duration.ofMinutes(minute)));
    }

    protected ClaimRequest scheduled(RunKey key) {
        return ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(LEASE));
    }

    protected static Claim claimed(ClaimResult result) {
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    @Test
    void freshOccurrence_inOwnGroup_isClaimedWithFirstAttemptAndFirstFence_andSuccessAdvancesCursor() {
        RunLedger ledger = ledger();
        RunKey key = key(job("solo"), 0);

        Claim claim = claimed(ledger.claim(scheduled(key)));
        clock.advance(Duration.ofSeconds(7));
        CompletionResult done = ledger.complete(claim, new Outcome.Succeeded("42 rows"));

        assertThat(claim.attempt()).isEqualTo(1);
        assertThat(claim.fence()).isEqualTo(1);
        assertThat(done).isInstanceOf(CompletionResult.Completed.class);
        RunRecord stored = ledger.run(key).orElseThrow();
        assertThat(stored.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(stored.resultSummary()).isEqualTo("42 rows");
        assertThat(stored.ownerToken()).isEqualTo(claim.lease().ownerToken());
        assertThat(stored.trigger()).isEqualTo(Trigger.SCHEDULED);
        assertThat(stored.duration()).contains(Duration.ofSeconds(7));
        assertThat(ledger.cursor(key.jobId())).contains(key.scheduledTime());
    }

    @Test
    void duplicateDelivery_ofSucceededOccurrence_isAlreadyDone_andNextOccurrenceGetsNextFence() {
        RunLedger ledger = ledger();
        RunKey first = key(job("solo"), 0);
        ledger.complete(claimed(ledger.claim(scheduled(first))), new Outcome.Succeeded(null));

        ClaimResult duplicate = ledger.claim(scheduled(first));
        Claim next = claimed(ledger.claim(scheduled(key(first.jobId(), 1))));

        assertThat(duplicate).isInstanceOf(ClaimResult.AlreadyDone.class);
        assertThat(((ClaimResult.AlreadyDone) duplicate).record().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(next.fence())
                .as("the duplicate was answered from the rejected write, without taking the lease")
                .isEqualTo(2);
    }

    @Test
    void duplicateDelivery_ofAnOlderSucceededOccurrence_isAlreadyDone_fromItsRunItem() {
        RunLedger ledger = ledger();
        String job = job("solo");
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 0)))), new Outcome.Succeeded("first"));
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 1)))), new Outcome.Succeeded("second"));

        ClaimResult duplicate = ledger.claim(scheduled(key(job, 0)));

        assertThat(duplicate).isInstanceOf(ClaimResult.AlreadyDone.class);
        assertThat(((ClaimResult.AlreadyDone) duplicate).record().resultSummary())
                .isEqualTo("first");
    }

    @Test
    void failedOccurrence_isRetriedUpToMaxAttempts_thenExhausted_untilAForcedManualRun() {
        RunLedger ledger = ledger();
        RunKey key = key(job("flaky"), 0);
        ClaimRequest request = ClaimRequest.scheduled(key, 1, 2, clock.peek().plus(LEASE));

        Claim first = claimed(ledger.claim(request));
        ledger.complete(first, new Outcome.Failed("IOException: reset"));
        Claim second = claimed(ledger.claim(request));
        ledger.complete(second, new Outcome.Failed("IOException: reset again"));
        ClaimResult third = ledger.claim(request);
        Claim forced = claimed(ledger.claim(request.forced(Trigger.MANUAL)));

        assertThat(second.attempt()).isEqualTo(2);
        assertThat(third).isInstanceOf(ClaimResult.AttemptsExhausted.class);
        assertThat(((ClaimResult.AttemptsExhausted) third).last().errorSummary())
                .isEqualTo("IOException: reset again");
        assertThat(forced.attempt()).isEqualTo(3);
        assertThat(forced.trigger()).isEqualTo(Trigger.MANUAL);
        assertThat(ledger.cursor(key.jobId())).isEmpty();
    }

    @Test
    void forcedManualRerun_ofSucceededOccurrence_isClaimedAndRecordedAgain_cursorUnchanged() {
        RunLedger ledger = ledger();
        RunKey key = key(job("report"), 0);
        ledger.complete(claimed(ledger.claim(scheduled(key))), new Outcome.Succeeded("first"));

        Claim rerun = claimed(ledger.claim(scheduled(key).forced(Trigger.MANUAL)));
        ledger.complete(rerun, new Outcome.Succeeded("second"));

        RunRecord stored = ledger.run(key).orElseThrow();
        assertThat(stored.resultSummary()).isEqualTo("second");
        assertThat(stored.attempts()).isEqualTo(2);
        assertThat(stored.trigger()).isEqualTo(Trigger.MANUAL);
        assertThat(ledger.cursor(key.jobId())).contains(key.scheduledTime());
    }

    @Test
    void secondInvocation_ofRunningOccurrence_isInProgressElsewhere_namingHolderAndLeaseEnd() {
        RunLedger ledger = ledger();
        RunKey key = key(job("solo"), 0);
        Claim running = claimed(ledger.claim(scheduled(key)));

        ClaimResult second = ledger.claim(scheduled(key));

        assertThat(second)
                .isEqualTo(new ClaimResult.InProgressElsewhere(
                        key.jobId(), running.lease().expiresAt()));
    }

    @Test
    void jobInSharedGroup_whileAnotherJobOfTheGroupRuns_isBusy_andRunsOnceTheGroupIsReleased() {
        RunLedger ledger = ledger();
        String group = job("shared");
        RunKey a = key(job("a"), 0);
        RunKey b = key(job("b"), 0);
        Claim runningA = claimed(ledger.claim(scheduled(a).inGroup(group)));

        ClaimResult blocked = ledger.claim(scheduled(b).inGroup(group));
        ledger.complete(runningA, new Outcome.Succeeded(null));
        Claim claimB = claimed(ledger.claim(scheduled(b).inGroup(group)));

        assertThat(blocked)
                .isEqualTo(new Busy(group, a.jobId(), runningA.lease().expiresAt()));
        assertThat(claimB.fence()).isEqualTo(runningA.fence() + 1);
        assertThat(ledger.complete(claimB, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Completed.class);
        assertThat(ledger.cursor(b.jobId())).contains(b.scheduledTime());
    }

    @Test
    void claimWaiting_onABusySharedGroup_retriesWithinTheBound_thenReportsBusy_orClaimsOnceFree() {
        String group = job("shared");
        RunLedger plain = ledger();
        Claim holder = claimed(plain.claim(scheduled(key(job("a"), 0)).inGroup(group)));
        RunKey waiting = key(job("b"), 0);
        Instant before = clock.peek();

        ClaimResult gaveUp =
                plain.claimWaiting(scheduled(waiting).inGroup(group), Duration.ofSeconds(20), Duration.ofSeconds(5));
        RunLedger releasing = ledger(clock, d -> {
            clock.advance(d);
            plain.complete(holder, new Outcome.Succeeded(null));
        });
        ClaimResult got = releasing.claimWaiting(
                scheduled(waiting).inGroup(group), Duration.ofSeconds(20), Duration.ofSeconds(5));

        assertThat(gaveUp).isInstanceOf(Busy.class);
        assertThat(Duration.between(before, clock.peek())).isEqualTo(Duration.ofSeconds(25));
        assertThat(got).isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void claimWaiting_whenThePollDoesNotDivideTheBound_neverWaitsPastTheBound() {
        String group = job("shared");
        RunLedger ledger = ledger();
        claimed(ledger.claim(scheduled(key(job("a"), 0)).inGroup(group)));
        Instant before = clock.peek();

        ClaimResult gaveUp = ledger.claimWaiting(
                scheduled(key(job("b"), 0)).inGroup(group), Duration.ofSeconds(3), Duration.ofSeconds(2));

        assertThat(gaveUp).isInstanceOf(Busy.class);
        // The caller counts on the time left after the bound (the runtime's same-minute wait).
        assertThat(Duration.between(before, clock.peek())).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void deadInvocation_leaseExpired_isTakenOverAtOnce_deadRunRecordedAbandoned_andRetryable() {
        RunLedger ledger = ledger();
        RunKey dead = key(job("solo"), 0);
        Claim died = claimed(
                ledger.claim(ClaimRequest.scheduled(dead, 1, 3, clock.peek().plus(Duration.ofMinutes(1)))));

        clock.advance(Duration.ofMinutes(1));
        Claim next = claimed(ledger.claim(scheduled(key(dead.jobId(), 1))));
        RunRecord abandoned = ledger.run(dead).orElseThrow();
        ledger.complete(next, new Outcome.Succeeded(null));
        Claim retry = claimed(ledger.claim(scheduled(dead)));

        assertThat(next.fence()).isGreaterThan(died.fence());
        assertThat(abandoned.status()).isEqualTo(RunStatus.ABANDONED);
        assertThat(abandoned.reason()).contains("expired");
        assertThat(abandoned.ownerToken()).isEqualTo(died.lease().ownerToken());
        assertThat(retry.attempt()).isEqualTo(2);
    }

    @Test
    void lateCompleter_afterItsLeaseExpired_isFencedAndRecordedFailed_neverSucceeded() {
        RunLedger ledger = ledger();
        RunKey key = key(job("slow"), 0);
        Claim claim = claimed(
                ledger.claim(ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(1)))));

        clock.advance(Duration.ofMinutes(1));
        CompletionResult result = ledger.complete(claim, new Outcome.Succeeded("done, but too late"));

        assertThat(result).isInstanceOf(CompletionResult.Fenced.class);
        assertThat(((CompletionResult.Fenced) result).stored()).isTrue();
        RunRecord stored = ledger.run(key).orElseThrow();
        assertThat(stored.status()).isEqualTo(RunStatus.FAILED);
        assertThat(stored.reason()).startsWith("FENCED");
        assertThat(ledger.cursor(key.jobId())).isEmpty();
        assertThat(claimed(ledger.claim(scheduled(key))).attempt()).isEqualTo(2);
    }

    @Test
    void lateCompleter_afterTakeover_isFenced_withoutTouchingTheNewOwnersRun() {
        RunLedger ledger = ledger();
        RunKey key = key(job("slow"), 0);
        Claim old = claimed(
                ledger.claim(ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(1)))));
        clock.advance(Duration.ofMinutes(2));
        Claim current = claimed(ledger.claim(scheduled(key)));

        CompletionResult late = ledger.complete(old, new Outcome.Succeeded(null));
        CompletionResult onTime = ledger.complete(current, new Outcome.Succeeded("current"));

        assertThat(late).isInstanceOf(CompletionResult.Fenced.class);
        assertThat(((CompletionResult.Fenced) late).stored()).isFalse();
        assertThat(onTime).isInstanceOf(CompletionResult.Completed.class);
        assertThat(ledger.run(key).orElseThrow().ownerToken())
                .isEqualTo(current.lease().ownerToken());
    }

    @Test
    void lateCompleter_afterTheNewOwnerFailedTheRetry_doesNotOverwriteTheNewerRecord() {
        RunLedger ledger = ledger();
        RunKey key = key(job("slow"), 0);
        Claim old = claimed(
                ledger.claim(ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(1)))));
        clock.advance(Duration.ofMinutes(2));
        Claim current = claimed(ledger.claim(scheduled(key)));
        ledger.complete(current, new Outcome.Failed("the newer owner's error"));

        CompletionResult late = ledger.complete(old, new Outcome.Succeeded(null));

        assertThat(late).isInstanceOf(CompletionResult.Fenced.class);
        RunRecord stored = ledger.run(key).orElseThrow();
        assertThat(stored.ownerToken()).isEqualTo(current.lease().ownerToken());
        assertThat(stored.errorSummary()).isEqualTo("the newer owner's error");
        assertThat(stored.attempts()).isEqualTo(2);
    }

    @Test
    void claimGivenBack_ofAFailedOccurrence_restoresTheFailure_andCountsNoAttempt() {
        RunLedger ledger = ledger();
        RunKey key = key(job("retry"), 0);
        ledger.complete(claimed(ledger.claim(scheduled(key))), new Outcome.Failed("boom"));

        Claim retry = claimed(ledger.claim(scheduled(key)));
        ledger.complete(retry, new Outcome.Skipped(SkipReason.DEFERRED, "older occurrences first"));

        RunRecord stored = ledger.run(key).orElseThrow();
        assertThat(stored.status()).isEqualTo(RunStatus.FAILED);
        assertThat(stored.errorSummary()).isEqualTo("boom");
        assertThat(stored.attempts()).isEqualTo(1);
        assertThat(claimed(ledger.claim(scheduled(key))).attempt()).isEqualTo(2);
    }

    @Test
    void claimGivenBack_ofAFreshOccurrence_isASkipWithNoAttempt_andTheNextClaimIsAttemptOne() {
        RunLedger ledger = ledger();
        RunKey key = key(job("fresh"), 0);

        Claim claim = claimed(ledger.claim(scheduled(key)));
        ledger.complete(claim, new Outcome.Skipped(SkipReason.DEFERRED, "older occurrences first"));

        assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SKIPPED);
        assertThat(ledger.run(key).orElseThrow().attempts()).isZero();
        assertThat(claimed(ledger.claim(scheduled(key))).attempt()).isEqualTo(1);
    }

    @Test
    void scheduledClaim_ofAnOccurrenceAfterNowPlusTheTolerance_isRefusedBeforeAnyJobRuns_andWritesNothing() {
        RunLedger ledger = ledger();
        RunKey future = new RunKey(job("future"), START.plus(Due.TOLERANCE).plusSeconds(1));
        RunKey dueInTolerance = new RunKey(job("skewed"), START.plus(Due.TOLERANCE));

        assertThatThrownBy(() -> ledger.claim(scheduled(future)))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("never moves a cursor into the future");
        assertThat(ledger.cursor(future.jobId())).isEmpty();
        assertThat(ledger.run(future)).isEmpty();
        assertThat(ledger.claim(scheduled(dueInTolerance))).isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void missedRange_endingAfterNowPlusTheTolerance_isRefused_andTheCursorStays() {
        RunLedger ledger = ledger();
        String job = job("future-missed");

        assertThatThrownBy(() -> ledger.recordMissed(key(job, 0), START.plus(Duration.ofMinutes(1)), 2))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("never moves a cursor into the future");
        assertThat(ledger.cursor(job)).isEmpty();
        assertThat(ledger.recordMissed(key(job, 0), START.plus(Due.TOLERANCE), 2))
                .isTrue();
    }

    @Test
    void maintenanceOff_forOneOperator_liftsOnlyTheHoldsThatOperatorSet_inTheSameWrite() {
        RunLedger ledger = ledger();
        String alices = job("alices");
        String bobs = job("bobs");
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of(alices),
                new MaintenanceHold("load", "alice", START.plus(Duration.ofHours(1))),
                Duration.ZERO,
                Duration.ofMillis(100)));
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of(bobs),
                new MaintenanceHold("repair", "bob", START.plus(Duration.ofHours(1))),
                Duration.ZERO,
                Duration.ofMillis(100)));

        List<String> lifted = ledger.maintenanceOff(List.of(alices, bobs), Optional.of("alice"));

        assertThat(lifted).containsExactly(alices);
        assertThat(ledger.maintenance(alices)).isEmpty();
        assertThat(ledger.maintenance(bobs))
                .hasValueSatisfying(h -> assertThat(h.setBy()).isEqualTo("bob"));
    }

    /** A command's hold (decision 0036): short, renewed while the command runs, given back when it ends. */
    private static final Duration LAPSE = Duration.ofMinutes(2);

    private MaintenanceReport commandHold(RunLedger ledger, String group, String by, boolean force) {
        MaintenanceRequest request = new MaintenanceRequest(
                List.of(group),
                new MaintenanceHold("load members", by, clock.peek().plus(LAPSE)).runningCommand("./load.sh --all"),
                Duration.ZERO,
                Duration.ofMillis(100));
        return ledger.maintenanceOn(force ? request.forced() : request);
    }

    @Test
    void commandHold_renewedBeforeItsLapse_keepsJobsOut_andItsReleaseLetsThemIn() {
        RunLedger ledger = ledger();
        String group = job("held");
        Lease held = commandHold(ledger, group, "loader", false).taken().getFirst();

        for (int renewal = 0; renewal < 4; renewal++) {
            clock.advance(LAPSE.dividedBy(2));
            held = ledger.extend(held, clock.peek().plus(LAPSE)).orElseThrow();
            assertThat(ledger.claim(scheduled(key(group, renewal)))).isInstanceOf(UnderMaintenance.class);
        }
        assertThat(Duration.between(START, clock.peek()))
                .as("held past its first lapse by its renewals")
                .isGreaterThan(LAPSE);
        assertThat(ledger.maintenance(group))
                .as("the stored hold names the command and the renewed end")
                .hasValueSatisfying(h -> {
                    assertThat(h.command()).contains("./load.sh --all");
                    assertThat(h.until()).isEqualTo(clock.peek().plus(LAPSE));
                });

        assertThat(ledger.releaseMaintenance(List.of(held))).containsExactly(group);
        assertThat(ledger.maintenance(group)).isEmpty();
        assertThat(ledger.claim(scheduled(key(group, 9)))).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(ledger.lock(group).maintenance())
                .as("a job's lease carries no old hold's reason or command")
                .isNull();
    }

    @Test
    void commandHold_whoseHolderStopsRenewing_endsAtItsLapse_andJobsResume() {
        RunLedger ledger = ledger();
        String group = job("crashed");
        Lease held = commandHold(ledger, group, "loader", false).taken().getFirst();

        clock.advance(LAPSE.minusSeconds(1));
        assertThat(ledger.claim(scheduled(key(group, 0)))).isInstanceOf(UnderMaintenance.class);
        clock.advance(Duration.ofSeconds(1));

        assertThat(ledger.claim(scheduled(key(group, 0)))).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(ledger.extend(held, clock.peek().plus(LAPSE)))
                .as("a renewal after the lapse comes too late: the group is lost")
                .isEmpty();
        assertThat(ledger.releaseMaintenance(List.of(held)))
                .as("a late release leaves the job's lease alone")
                .isEmpty();
        assertThat(ledger.lock(group).leaseHolder()).isEqualTo(group);
    }

    @Test
    void commandHold_forcedOverByAnotherOperator_isLostToItsRenewal_andItsReleaseLeavesTheirHold() {
        RunLedger ledger = ledger();
        String group = job("forced");
        Lease held = commandHold(ledger, group, "loader", false).taken().getFirst();
        MaintenanceReport forced = ledger.maintenanceOn(new MaintenanceRequest(
                        List.of(group),
                        new MaintenanceHold("repair", "oncall", START.plus(Duration.ofHours(1))),
                        Duration.ZERO,
                        Duration.ofMillis(100))
                .forced());

        assertThat(forced.complete()).isTrue();
        clock.advance(LAPSE.dividedBy(4));
        assertThat(ledger.extend(held, clock.peek().plus(LAPSE))).isEmpty();
        assertThat(ledger.releaseMaintenance(List.of(held))).isEmpty();
        assertThat(ledger.maintenance(group)).hasValueSatisfying(h -> {
            assertThat(h.setBy()).isEqualTo("oncall");
            assertThat(h.command())
                    .as("a hold switched on by hand over a command's names no command")
                    .isEmpty();
        });
    }

    @Test
    void commandHold_isRefusedEvenByItsOwnOperatorsHold_whichKeepsItsEnd() {
        RunLedger ledger = ledger();
        String group = job("own");
        Instant twoDays = START.plus(Duration.ofDays(2));
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of(group),
                new MaintenanceHold("migration", "loader", twoDays),
                Duration.ZERO,
                Duration.ofMillis(100)));

        MaintenanceReport refused = commandHold(ledger, group, "loader", false);

        assertThat(refused.refused()).isPresent();
        assertThat(ledger.maintenance(group)).hasValueSatisfying(h -> {
            assertThat(h.until()).isEqualTo(twoDays);
            assertThat(h.command()).isEmpty();
        });
    }

    @Test
    void aSecondCommandHoldOfTheSameOperator_isRefused_soTwoToolsNeverRunAtOnce() {
        RunLedger ledger = ledger();
        String group = job("twice");
        Lease first = commandHold(ledger, group, "runner", false).taken().getFirst();

        MaintenanceReport second = commandHold(ledger, group, "runner", false);

        assertThat(second.refused()).isPresent();
        assertThat(second.taken()).isEmpty();
        assertThat(ledger.lock(group).leaseOwner()).isEqualTo(first.ownerToken());
    }

    @Test
    void maintenanceOnOverItsOwnOperatorsCommandHold_replacesIt_dropsTheCommand_andTheHoldsRenewalIsLost() {
        RunLedger ledger = ledger();
        String group = job("over");
        Lease held = commandHold(ledger, group, "loader", false).taken().getFirst();
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of(group),
                new MaintenanceHold("migration", "loader", START.plus(Duration.ofDays(2))),
                Duration.ZERO,
                Duration.ofMillis(100)));

        clock.advance(LAPSE.dividedBy(4));

        assertThat(ledger.renewHold(held, clock.peek().plus(LAPSE))).isEmpty();
        assertThat(ledger.releaseMaintenance(List.of(held))).isEmpty();
        assertThat(ledger.maintenance(group)).hasValueSatisfying(h -> {
            assertThat(h.until()).isEqualTo(START.plus(Duration.ofDays(2)));
            assertThat(h.command()).isEmpty();
        });
    }

    @Test
    void renewHold_mayShortenOurHold_toNowAndALapse_butNotToThePast() {
        RunLedger ledger = ledger();
        String group = job("shorten");
        Lease held = ledger.maintenanceOn(new MaintenanceRequest(
                        List.of(group),
                        new MaintenanceHold("load", "loader", START.plus(Duration.ofMinutes(30)))
                                .runningCommand("./load.sh"),
                        Duration.ZERO,
                        Duration.ofMillis(100)))
                .taken()
                .getFirst();

        Lease renewed = ledger.renewHold(held, START.plus(LAPSE)).orElseThrow();

        assertThat(renewed.expiresAt()).isEqualTo(START.plus(LAPSE));
        assertThat(ledger.maintenance(group))
                .hasValueSatisfying(h -> assertThat(h.until()).isEqualTo(START.plus(LAPSE)));
        clock.advance(LAPSE);
        assertThat(ledger.claim(scheduled(key(group, 0)))).isInstanceOf(ClaimResult.Claimed.class);
        assertThatThrownBy(() -> ledger.renewHold(renewed, START)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void commandHold_isRefusedByAnotherOperatorsHold_andTakesNothing() {
        RunLedger ledger = ledger();
        String group = job("refused");
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of(group),
                new MaintenanceHold("repair", "oncall", START.plus(Duration.ofHours(1))),
                Duration.ZERO,
                Duration.ofMillis(100)));

        MaintenanceReport refused = commandHold(ledger, group, "loader", false);

        assertThat(refused.refused())
                .hasValueSatisfying(r -> assertThat(r.group()).isEqualTo(group));
        assertThat(refused.taken()).isEmpty();
        assertThat(ledger.maintenance(group))
                .hasValueSatisfying(h -> assertThat(h.command()).isEmpty());
    }

    @Test
    void cursor_onlyMovesForward_throughOlderReplaysAndMissedRanges() {
        RunLedger ledger = ledger();
        String job = job("cursor");
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 5)))), new Outcome.Succeeded(null));

        Claim replay = claimed(ledger.claim(scheduled(key(job, 3))));
        ledger.complete(replay, new Outcome.Succeeded(null));
        boolean movedBack = ledger.recordMissed(key(job, 1), key(job, 2).scheduledTime(), 2);
        Optional<Instant> afterOld = ledger.cursor(job);
        boolean movedOn = ledger.recordMissed(key(job, 6), key(job, 8).scheduledTime(), 3);

        assertThat(replay.onSlot())
                .as("an occurrence behind the cursor is claimed on its run item")
                .isFalse();
        assertThat(movedBack).isFalse();
        assertThat(afterOld).contains(key(job, 5).scheduledTime());
        assertThat(movedOn).isTrue();
        assertThat(ledger.cursor(job)).contains(key(job, 8).scheduledTime());
        assertThat(ledger.claim(scheduled(key(job, 7)))).isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void maintenanceOn_takesEveryGroup_waitsBoundedForRunningJob_namesIt_andJobsSkipUnderIt() {
        RunLedger ledger = ledger();
        String a = job("a");
        String b = job("b");
        String shared = job("shared");
        Claim runningB = claimed(ledger.claim(scheduled(key(b, 0))));
        MaintenanceHold hold =
                new MaintenanceHold("synthetic data load", "ops@example", START.plus(Duration.ofHours(1)));
        Instant before = clock.peek();

        MaintenanceReport partial = ledger.maintenanceOn(
                new MaintenanceRequest(List.of(a, b, shared), hold, Duration.ofSeconds(30), Duration.ofSeconds(5)));

        assertThat(Duration.between(before, clock.peek()))
                .as("waited on the clock")
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(partial.taken()).extracting(Lease::group).containsExactly(a, shared);
        assertThat(partial.stillRunning())
                .containsExactly(new Busy(b, b, runningB.lease().expiresAt()));
        ClaimResult underMaintenance = ledger.claim(scheduled(key(a, 0)));
        assertThat(underMaintenance).isEqualTo(new UnderMaintenance(a, hold));
        assertThat(ledger.recordSkip(key(a, 0), Trigger.SCHEDULED, 1, SkipReason.MAINTENANCE, hold.reason()))
                .isInstanceOf(SkipResult.Recorded.class);
        assertThat(ledger.run(key(a, 0)).orElseThrow().reason()).isEqualTo("MAINTENANCE: synthetic data load");
        assertThat(ledger.claim(scheduled(key(job("c"), 0)).inGroup(shared))).isInstanceOf(UnderMaintenance.class);

        ledger.complete(runningB, new Outcome.Succeeded(null));
        MaintenanceReport full = ledger.maintenanceOn(
                new MaintenanceRequest(List.of(a, b, shared), hold, Duration.ofSeconds(30), Duration.ofSeconds(5)));
        assertThat(full.complete()).isTrue();
        assertThat(ledger.claim(scheduled(key(b, 1)))).isInstanceOf(UnderMaintenance.class);

        assertThat(ledger.maintenanceOff(List.of(a, b, shared))).containsExactly(a, b, shared);
        assertThat(ledger.claim(scheduled(key(a, 0)))).isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void maintenanceOn_whenTheRunningJobFinishesDuringTheWait_takesItsGroupToo() {
        String b = job("b");
        RunLedger plain = ledger();
        Claim runningB = claimed(plain.claim(scheduled(key(b, 0))));
        RunLedger ledger = ledger(clock, d -> {
            clock.advance(d);
            plain.complete(runningB, new Outcome.Succeeded(null));
        });
        MaintenanceHold hold = new MaintenanceHold("migration", "ops", START.plus(Duration.ofMinutes(10)));

        MaintenanceReport report = ledger.maintenanceOn(
                new MaintenanceRequest(List.of(b), hold, Duration.ofMinutes(1), Duration.ofSeconds(5)));

        assertThat(report.complete()).isTrue();
        // A hold has no fence and leaves the group's as the job left it (decision 0037).
        assertThat(report.taken()).singleElement().extracting(Lease::fence).isEqualTo(Lease.NO_FENCE);
        assertThat(ledger.lock(b).fence()).isEqualTo(runningB.fence());
        assertThat(ledger.maintenance(b)).contains(hold);
    }

    /**
     * Fences only grow, and only jobs' (and entities') acquisitions move them (decision 0037): maintenance
     * on, its renewal and off leave a group's fence as the last job left it, and the next job's lease is
     * one above that job's, never a fence handed out before.
     */
    @Test
    void maintenance_onRenewedAndOff_leavesTheFence_andTheNextJobGetsTheNextFence() {
        RunLedger ledger = ledger();
        String a = job("a");
        Claim first = claimed(ledger.claim(scheduled(key(a, 0))));
        ledger.complete(first, new Outcome.Succeeded(null));
        MaintenanceHold hold = new MaintenanceHold("load", "ops", START.plus(Duration.ofMinutes(30)));

        MaintenanceReport on = ledger.maintenanceOn(maintenanceOn(List.of(a), hold));
        Lease held = on.taken().getFirst();
        assertThat(held.fence()).isEqualTo(Lease.NO_FENCE);
        assertThat(ledger.lock(a).fence()).isEqualTo(first.fence());
        assertThat(ledger.renewHold(held, START.plus(Duration.ofMinutes(40)))).isPresent();
        assertThat(ledger.lock(a).fence()).isEqualTo(first.fence());
        assertThat(ledger.maintenanceOff(List.of(a), Optional.of("ops"))).containsExactly(a);
        assertThat(ledger.lock(a).fence()).isEqualTo(first.fence());

        Claim next = claimed(ledger.claim(scheduled(key(a, 1))));
        assertThat(next.fence()).isEqualTo(first.fence() + 1);
    }

    @Test
    void maintenanceHold_pastItsExpiry_noLongerBlocksJobs() {
        RunLedger ledger = ledger();
        String a = job("a");
        MaintenanceHold hold = new MaintenanceHold("short", "ops", START.plus(Duration.ofMinutes(10)));
        ledger.maintenanceOn(new MaintenanceRequest(List.of(a), hold, Duration.ZERO, Duration.ofSeconds(1)));

        clock.advance(Duration.ofMinutes(10));

        assertThat(ledger.maintenance(a)).isEmpty();
        assertThat(ledger.claim(scheduled(key(a, 0)))).isInstanceOf(ClaimResult.Claimed.class);
    }

    /** Maintenance on for these groups at once: no wait for running jobs. */
    protected static MaintenanceRequest maintenanceOn(List<String> groups, MaintenanceHold hold) {
        return new MaintenanceRequest(groups, hold, Duration.ZERO, Duration.ofMillis(100));
    }

    @Test
    void maintenanceOn_whileAnotherOperatorsHoldIsInForce_isRefusedNamingWhoWhyAndUntil_andTheirHoldStays() {
        RunLedger ledger = ledger();
        List<String> groups = List.of(job("a"), job("b"));
        MaintenanceHold alices = new MaintenanceHold("load", "alice", START.plus(Duration.ofMinutes(60)));
        ledger.maintenanceOn(maintenanceOn(groups, alices));

        MaintenanceReport bobs = ledger.maintenanceOn(
                maintenanceOn(groups, new MaintenanceHold("repair", "bob", START.plus(Duration.ofMinutes(10)))));

        assertThat(bobs.complete()).isFalse();
        assertThat(bobs.refused()).contains(new MaintenanceRefused(job("a"), alices));
        assertThat(bobs.taken()).isEmpty();
        assertThat(bobs.stillRunning()).isEmpty();
        for (String group : groups) {
            assertThat(ledger.maintenance(group)).as(group).contains(alices);
        }
    }

    @Test
    void maintenanceOn_refusedPartWay_givesBackTheGroupsItHadAlreadyTaken() {
        RunLedger ledger = ledger();
        String first = job("a");
        String held = job("m");
        MaintenanceHold alices = new MaintenanceHold("load", "alice", START.plus(Duration.ofMinutes(60)));
        ledger.maintenanceOn(maintenanceOn(List.of(held), alices));

        MaintenanceReport bobs = ledger.maintenanceOn(
                maintenanceOn(List.of(first, held), new MaintenanceHold("repair", "bob", START.plus(LEASE))));

        assertThat(bobs.refused()).contains(new MaintenanceRefused(held, alices));
        assertThat(bobs.taken()).isEmpty();
        assertThat(ledger.maintenance(first)).as("nothing left half-held").isEmpty();
        assertThat(ledger.lock(first).leaseHeldAt(clock.peek())).isFalse();
        assertThat(ledger.claim(scheduled(key(first, 0)))).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(ledger.maintenance(held)).contains(alices);
    }

    @Test
    void maintenanceOn_againByTheSameOperator_replacesItsOwnHold_withTheNewReasonAndEnd() {
        RunLedger ledger = ledger();
        List<String> groups = List.of(job("a"), job("b"));
        ledger.maintenanceOn(
                maintenanceOn(groups, new MaintenanceHold("load", "alice", START.plus(Duration.ofMinutes(10)))));
        MaintenanceHold longer = new MaintenanceHold("load, longer", "alice", START.plus(Duration.ofMinutes(60)));

        MaintenanceReport again = ledger.maintenanceOn(maintenanceOn(groups, longer));

        assertThat(again.complete()).isTrue();
        assertThat(again.taken()).extracting(Lease::group).containsExactlyElementsOf(groups);
        assertThat(again.taken()).extracting(Lease::fence).containsOnly(Lease.NO_FENCE);
        for (String group : groups) {
            assertThat(ledger.maintenance(group)).as(group).contains(longer);
        }
    }

    @Test
    void maintenanceOn_forced_replacesAnotherOperatorsHold_butNeverARunningJobsLease() {
        RunLedger ledger = ledger();
        String a = job("a");
        String b = job("b");
        String running = job("running");
        ledger.maintenanceOn(
                maintenanceOn(List.of(a, b), new MaintenanceHold("load", "alice", START.plus(Duration.ofMinutes(60)))));
        Claim job = claimed(ledger.claim(scheduled(key(running, 0))));
        MaintenanceHold bobs = new MaintenanceHold("repair", "bob", START.plus(Duration.ofMinutes(10)));

        MaintenanceReport forced =
                ledger.maintenanceOn(maintenanceOn(List.of(a, b, running), bobs).forced());

        assertThat(forced.refused()).isEmpty();
        assertThat(forced.taken()).extracting(Lease::group).containsExactly(a, b);
        assertThat(forced.stillRunning())
                .containsExactly(new Busy(running, running, job.lease().expiresAt()));
        assertThat(ledger.maintenance(a)).contains(bobs);
        assertThat(ledger.maintenance(b)).contains(bobs);
        assertThat(ledger.complete(job, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void maintenanceOn_afterAnotherOperatorsHoldEnded_takesEveryGroup_butNotAMillisecondBefore() {
        RunLedger ledger = ledger();
        List<String> groups = List.of(job("a"), job("b"));
        MaintenanceHold alices = new MaintenanceHold("load", "alice", START.plus(Duration.ofMinutes(10)));
        ledger.maintenanceOn(maintenanceOn(groups, alices));
        MaintenanceHold bobs = new MaintenanceHold("repair", "bob", START.plus(Duration.ofMinutes(60)));

        clock.advance(Duration.ofMinutes(10).minusMillis(1));
        MaintenanceReport early = ledger.maintenanceOn(maintenanceOn(groups, bobs));
        clock.advance(Duration.ofMillis(1));
        MaintenanceReport atItsEnd = ledger.maintenanceOn(maintenanceOn(groups, bobs));

        assertThat(early.refused()).contains(new MaintenanceRefused(job("a"), alices));
        assertThat(atItsEnd.complete())
                .as("a hold ends at its until, like every lease")
                .isTrue();
        for (String group : groups) {
            assertThat(ledger.maintenance(group)).as(group).contains(bobs);
        }
    }

    @Test
    void skip_neverOverwritesAFailure() {
        RunLedger ledger = ledger();
        RunKey key = key(job("solo"), 0);
        ledger.complete(claimed(ledger.claim(scheduled(key))), new Outcome.Failed("boom"));

        SkipResult skip = ledger.recordSkip(key, Trigger.SCHEDULED, 2, SkipReason.LOCK_BUSY, null);

        assertThat(skip).isInstanceOf(SkipResult.Kept.class);
        assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
    }

    @Test
    void records_carryTtlPerOutcome_inWholeSeconds_fromTheirFinishTime() {
        RunLedger ledger = ledger();
        clock.advance(Duration.ofMillis(1500));
        RunKey ok = key(job("ok"), 0);
        RunKey bad = key(job("bad"), 0);
        RunKey skipped = key(job("skipped"), 0);
        ledger.complete(claimed(ledger.claim(scheduled(ok))), new Outcome.Succeeded(null));
        ledger.complete(claimed(ledger.claim(scheduled(bad))), new Outcome.Failed("x"));
        ledger.recordSkip(skipped, Trigger.SCHEDULED, 1, SkipReason.DISABLED, null);

        Instant finished = START.plusSeconds(1);
        assertThat(ledger.run(ok).orElseThrow().expiresAt()).isEqualTo(finished.plus(Duration.ofDays(35)));
        assertThat(ledger.run(bad).orElseThrow().expiresAt()).isEqualTo(finished.plus(Duration.ofDays(180)));
        assertThat(ledger.run(skipped).orElseThrow().expiresAt()).isEqualTo(finished.plus(Duration.ofDays(35)));
    }

    @Test
    void heartbeat_holderOfTheClaimsFenceExtends_andTheExtendedLeaseKeepsASuccessorOut() {
        RunLedger ledger = ledger();
        RunKey key = key(job("long"), 0);
        Claim claim = claimed(ledger.claim(scheduled(key)));
        Instant later = claim.lease().expiresAt().plus(LEASE);

        Optional<Lease> extended = ledger.extend(claim.lease(), later);
        clock.advance(LEASE.plusSeconds(1)); // past the first end, before the extended one

        assertThat(extended.map(Lease::expiresAt)).contains(later);
        assertThat(extended.map(Lease::fence)).contains(claim.fence());
        assertThat(ledger.lock(key.jobId()).leaseUntil()).isEqualTo(later);
        assertThat(ledger.claim(scheduled(key(key.jobId(), 1)))).isInstanceOf(Busy.class);
        assertThat(ledger.complete(claim, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void heartbeat_afterTheLeaseEndedAndWasTakenOver_isRefused_andTheOldHolderIsFencedOut() {
        RunLedger ledger = ledger();
        RunKey key = key(job("overrun"), 0);
        Claim first = claimed(ledger.claim(scheduled(key)));
        clock.advance(LEASE.plusSeconds(1));
        Claim second = claimed(ledger.claim(scheduled(key)));

        Optional<Lease> extended = ledger.extend(first.lease(), clock.peek().plus(LEASE));

        assertThat(extended).isEmpty();
        assertThat(second.fence()).isEqualTo(first.fence() + 1);
        assertThat(ledger.lock(key.jobId()).leaseOwner())
                .isEqualTo(second.lease().ownerToken());
        assertThat(ledger.complete(first, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Fenced.class);
    }

    @Test
    void heartbeat_ofAnExpiredLeaseNobodyTook_isRefused() {
        RunLedger ledger = ledger();
        Claim claim = claimed(ledger.claim(scheduled(key(job("late-beat"), 0))));
        clock.advance(LEASE.plusSeconds(1));

        assertThat(ledger.extend(claim.lease(), clock.peek().plus(LEASE))).isEmpty();
    }

    @Test
    void heartbeat_withAnotherOwnerToken_isRefused() {
        RunLedger ledger = ledger();
        Lease lease = claimed(ledger.claim(scheduled(key(job("stranger"), 0)))).lease();
        Lease stranger = new Lease(lease.group(), "someone-else", lease.fence(), lease.acquiredAt(), lease.expiresAt());

        assertThat(ledger.extend(stranger, lease.expiresAt().plus(LEASE))).isEmpty();
        assertThat(ledger.lock(lease.group()).leaseUntil()).isEqualTo(lease.expiresAt());
    }

    @Test
    void heartbeat_withTheOwnerTokenButAnOlderFence_isRefused() {
        RunLedger ledger = ledger();
        String job = job("fence");
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 0)))), new Outcome.Succeeded(null));
        // The second acquisition, so that the older fence is a real one (1), not a hold's NO_FENCE.
        Claim claim = claimed(ledger.claim(scheduled(key(job, 1))));
        Lease lease = claim.lease();
        Lease olderFence =
                new Lease(lease.group(), lease.ownerToken(), lease.fence() - 1, lease.acquiredAt(), lease.expiresAt());

        assertThat(ledger.extend(olderFence, lease.expiresAt().plus(LEASE))).isEmpty();
        assertThat(ledger.lock(lease.group()).leaseUntil()).isEqualTo(lease.expiresAt());
    }

    @Test
    void heartbeat_thatWouldShortenTheLease_isRefusedNamingTheLeasesEnd() {
        RunLedger ledger = ledger();
        Claim claim = claimed(ledger.claim(scheduled(key(job("shorten"), 0))));

        assertThatThrownBy(() -> ledger.extend(claim.lease(), claim.lease().expiresAt()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("until must be after the lease's end");
    }

    @Test
    void attemptHistory_anAbandonedAttemptSurvivesTheRetrysSuccess_onTheRunItem() {
        RunLedger ledger = ledger();
        RunKey key = key(job("killed"), 0);
        Claim dead = claimed(ledger.claim(scheduled(key)));
        clock.advance(LEASE.plusSeconds(1)); // the holder died; its lease ran out

        Claim retry = claimed(ledger.claim(scheduled(key)));
        ledger.complete(retry, new Outcome.Succeeded("ok"));

        RunRecord stored = ledger.run(key).orElseThrow();
        assertThat(stored.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(stored.attempts()).isEqualTo(2);
        assertThat(stored.earlier()).singleElement().satisfies(a -> {
            assertThat(a.attempt()).isEqualTo(1);
            assertThat(a.status()).isEqualTo(RunStatus.ABANDONED);
            assertThat(a.fence()).isEqualTo(dead.fence());
            assertThat(a.ownerToken()).isEqualTo(dead.lease().ownerToken());
            assertThat(a.startedAt()).isEqualTo(START);
            assertThat(a.finishedAt()).isEqualTo(START.plus(LEASE).plusSeconds(1));
            assertThat(a.reason()).startsWith("ABANDONED: lease " + dead.fence());
        });
    }

    @Test
    void attemptHistory_aFencedAttemptAndAFailureAreKeptInOrder_andTheInFlightRecordShowsThemToo() {
        RunLedger ledger = ledger();
        RunKey key = key(job("fenced-then-failed"), 0);
        Claim first = claimed(ledger.claim(scheduled(key)));
        ledger.complete(first, new Outcome.Failed("IllegalStateException: boom"));
        Claim second = claimed(ledger.claim(scheduled(key)));
        clock.advance(LEASE.plusSeconds(1));
        // The next occurrence takes the group after second's lease ran out, and finishes.
        Claim next = claimed(ledger.claim(scheduled(key(key.jobId(), 1))));
        assertThat(ledger.complete(second, new Outcome.Succeeded(null))).isInstanceOf(CompletionResult.Fenced.class);
        ledger.complete(next, new Outcome.Succeeded(null));

        Claim third = claimed(ledger.claim(scheduled(key)));

        RunRecord inFlight = ledger.run(key).orElseThrow();
        assertThat(inFlight.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(inFlight.earlier())
                .extracting(Attempt::attempt, Attempt::status)
                .containsExactly(Tuple.tuple(1, RunStatus.FAILED), Tuple.tuple(2, RunStatus.FAILED));
        assertThat(inFlight.earlier().get(0).reason()).isEqualTo("IllegalStateException: boom");
        assertThat(inFlight.earlier().get(1).reason()).startsWith("FENCED: lease " + second.fence());
        ledger.complete(third, new Outcome.Succeeded(null));
        assertThat(ledger.run(key).orElseThrow().earlier()).hasSize(2);
    }

    @Test
    void attemptHistory_isBoundedToTheLastFiveAttempts() {
        RunLedger ledger = ledger();
        RunKey key = key(job("bounded"), 0);
        for (int i = 0; i < 7; i++) {
            Claim c = claimed(ledger.claim(scheduled(key).forced(Trigger.MANUAL)));
            ledger.complete(c, new Outcome.Failed("failure " + (i + 1)));
        }

        RunRecord stored = ledger.run(key).orElseThrow();

        assertThat(stored.attempts()).isEqualTo(7);
        assertThat(stored.earlier()).hasSize(Attempt.KEPT);
        assertThat(stored.earlier()).extracting(Attempt::attempt).containsExactly(2, 3, 4, 5, 6);
        assertThat(stored.earlier()).extracting(Attempt::reason).endsWith("failure 6");
    }
}
