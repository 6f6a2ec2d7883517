package dev.punctual.jepsen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.jepsen.HistoryChecker.Check;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker on hand-made histories: a legal one (with the hard cases: a takeover at exactly the
 * tolerated skew, a late writer refused by the fence, a stale write that lands before the new holder
 * wrote) has no anomaly, and each kind of bad history is reported, so the suite's checks cannot pass
 * by checking nothing.
 */
class HistoryCheckerTest {

    /** The reference clock, in ms; all times below are offsets from it. */
    private static final long T = 1_800_000_000_000L;

    private static final long OCC = T - 600_000;
    private static final long OCC2 = OCC + 60_000;
    private static final String JOB = "solo";
    private static final String GROUP = "solo";

    private final List<Op> history = new ArrayList<>();

    // ---------------------------------------------------------------- a legal history

    /**
     * A (clock 1 s behind) claims with 500 ms left: its lease ends at T+1510 on its clock, so it may rely
     * on it until T+510 on the reference clock. It overruns. B (clock 1 s ahead: the widest pair the
     * tolerance allows) takes the lease over as soon as its own clock reaches A's end, at T+510, writes,
     * and commits. A's late write is refused by the fence, its completion is fenced. Maintenance comes
     * and goes; C runs the next occurrence; a refused payload writes nothing.
     */
    private void legalHistory() {
        claimed("a.1", -1000, OCC, 1, "a1", T, T + 10, T - 1000 + 10 + 2500);
        claimed("b.1", 1000, OCC, 2, "b2", T + 505, T + 520, T + 520 + 1000 + 2500);
        add(write("b.1", 1000, 2, "b2", T + 530, T + 540).landed(1).result(Op.APPLIED));
        complete("b.1", 1000, OCC, 2, "b2", T + 4020, T + 560, T + 580, "Completed", "SUCCEEDED");
        add(write("a.1", -1000, 1, "a1", T + 600, T + 605).result(Op.REFUSED).refusedBy(2));
        complete("a.1", -1000, OCC, 1, "a1", T + 1510, T + 610, T + 620, "Fenced", "FAILED");
        add(Op.of("d.1", 0, Op.Kind.CLAIM)
                .atMillis(T + 300, T + 310)
                .occurrence(JOB, OCC, GROUP)
                .result("Busy")
                .until(T + 1510));
        add(Op.of("op.1", 0, Op.Kind.MAINT_ON)
                .atMillis(T + 700, T + 720)
                .result(Op.OK)
                .until(T + 5000)
                .taken(List.of(new Op.Held(GROUP, 3, "m3", T + 5000))));
        add(Op.of("op.1", 0, Op.Kind.MAINT_OFF).atMillis(T + 900, T + 910).result(Op.OK));
        claimed("c.1", 0, OCC2, 4, "c4", T + 950, T + 960, T + 960 + 2500);
        add(write("c.1", 0, 4, "c4", T + 980, T + 990).result(Op.APPLIED).landed(2));
        complete("c.1", 0, OCC2, 4, "c4", T + 3460, T + 1000, T + 1010, "Completed", "SUCCEEDED");
        add(Op.of("c.1", 0, Op.Kind.PAYLOAD)
                .atMillis(T + 1100, T + 1101)
                .occurrence(JOB, T + 120_000, null)
                .payload("{\"kind\":\"scheduled\"...}", "NOT_DUE", "NOT_DUE", 0, 0)
                .result(Op.REFUSED));
    }

    private FinalState legalState() {
        return new FinalState(
                true,
                Map.of(
                        key(OCC), new FinalState.StoredRun("SUCCEEDED", "b2", 2),
                        key(OCC2), new FinalState.StoredRun("SUCCEEDED", "c4", 4)),
                Map.of(GROUP, 4L),
                Map.of(GROUP, new FinalState.DomainItem(4, 2)));
    }

    @Test
    void aLegalHistory_withATakeoverAtTheToleratedSkew_hasNoAnomaly() {
        legalHistory();

        HistoryChecker.Result result = HistoryChecker.check(history, legalState());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("successes", 2L)
                .containsEntry("completions.fenced", 1L)
                .containsEntry("domain.lateWritesRefused", 1L)
                .containsEntry("maintenance.holds", 1L)
                .containsEntry("payloads.refused", 1L);
    }

    @Test
    void aStaleWrite_landingBeforeTheNewHolderWrote_isFencingAsDesigned_notAnAnomaly() {
        claimed("a.1", 0, OCC, 1, "a1", T, T + 10, T + 2500);
        claimed("b.1", 0, OCC, 2, "b2", T + 2500, T + 2510, T + 5000);
        add(write("a.1", 0, 1, "a1", T + 2600, T + 2610).result(Op.APPLIED).landed(1));
        add(write("b.1", 0, 2, "b2", T + 2700, T + 2710).result(Op.APPLIED).landed(2));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures()).containsEntry("domain.lateWritesLanded", 1L);
    }

    // ---------------------------------------------------------------- the five guarantees

    @Test
    void twoReportedSuccesses_ofOneOccurrence_areReported() {
        claimed("a.1", 0, OCC, 1, "a1", T, T + 10, T + 2500);
        complete("a.1", 0, OCC, 1, "a1", T + 2500, T + 100, T + 110, "Completed", "SUCCEEDED");
        claimed("b.1", 0, OCC, 2, "b2", T + 200, T + 210, T + 2700);
        complete("b.1", 0, OCC, 2, "b2", T + 2700, T + 300, T + 310, "Completed", "SUCCEEDED");

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.DOUBLE_SUCCESS)).isEqualTo(1);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.DOUBLE_SUCCESS);
    }

    /** Clocks 3 s apart, beyond the 2 s margin: B takes a lease A may still rely on. */
    @Test
    void overlappingLeases_whenClocksDriftBeyondTheMargin_areReported() {
        claimed("a.1", -1500, OCC, 1, "a1", T, T + 10, T - 1500 + 10 + 2500);
        claimed("b.1", 1500, OCC, 2, "b2", T + 100, T + 110, T + 110 + 1500 + 2500);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.LEASE_OVERLAP)).isEqualTo(1);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.LEASE_OVERLAP);
    }

    @Test
    void aJobLease_takenWhileMaintenanceHolds_isAnOverlap() {
        add(Op.of("op.1", 0, Op.Kind.MAINT_ON)
                .atMillis(T, T + 10)
                .result(Op.OK)
                .until(T + 10_000)
                .taken(List.of(new Op.Held(GROUP, 1, "m1", T + 10_000))));
        claimed("a.1", 0, OCC, 2, "a2", T + 100, T + 110, T + 2600);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.LEASE_OVERLAP)).isEqualTo(1);
    }

    @Test
    void aFenceHandedOutTwice_isReported() {
        claimed("a.1", 0, OCC, 7, "a7", T, T + 10, T + 2500);
        complete("a.1", 0, OCC, 7, "a7", T + 2500, T + 100, T + 110, "Completed", "FAILED");
        claimed("b.1", 0, OCC, 7, "b7", T + 200, T + 210, T + 2700);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.FENCE_ORDER)).isPositive();
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.FENCE_ORDER);
    }

    @Test
    void aLowerFence_acquiredAfterAHigherOneReturned_isReported() {
        claimed("a.1", 0, OCC, 5, "a5", T, T + 10, T + 2500);
        complete("a.1", 0, OCC, 5, "a5", T + 2500, T + 100, T + 110, "Completed", "FAILED");
        claimed("b.1", 0, OCC, 4, "b4", T + 200, T + 210, T + 2700);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.FENCE_ORDER)).isEqualTo(2); // the real-time order and the held order
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.FENCE_ORDER);
    }

    @Test
    void aStoredFenceBelowTheFencesHandedOut_isReported() {
        claimed("a.1", 0, OCC, 5, "a5", T, T + 10, T + 2500);

        HistoryChecker.Result result =
                HistoryChecker.check(history, new FinalState(true, Map.of(), Map.of(GROUP, 4L), Map.of()));

        assertThat(result.count(Check.FENCE_ORDER)).isEqualTo(1);
    }

    @Test
    void aRefusedPayload_thatWroteOrLeftARecord_isReported() {
        add(Op.of("a.1", 0, Op.Kind.PAYLOAD)
                .atMillis(T, T + 1)
                .occurrence(JOB, T + 120_000, null)
                .payload("{...}", "NOT_DUE", "NOT_DUE", 1, 2)
                .result(Op.REFUSED));

        HistoryChecker.Result result = HistoryChecker.check(
                history,
                new FinalState(
                        true,
                        Map.of(key(T + 120_000), new FinalState.StoredRun("SKIPPED", null, 0)),
                        Map.of(),
                        Map.of()));

        assertThat(result.count(Check.REFUSED_INPUT_WROTE)).isEqualTo(2);
        assertThat(result.anomalies())
                .extracting(HistoryChecker.Anomaly::check)
                .containsOnly(Check.REFUSED_INPUT_WROTE);
    }

    @Test
    void aBadPayloadThatRan_andAGoodOneRefused_areReported() {
        add(Op.of("a.1", 0, Op.Kind.PAYLOAD)
                .atMillis(T, T + 1)
                .payload("{...}", "NOT_DUE", null, 3, 3)
                .result(Op.OK));
        add(Op.of("a.1", 0, Op.Kind.PAYLOAD)
                .atMillis(T + 2, T + 3)
                .payload("{...}", null, "NOT_DUE", 0, 0)
                .result(Op.REFUSED));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.INPUT_MISJUDGED)).isEqualTo(2);
    }

    @Test
    void aLowerFence_landingAfterAHigherOne_isAFencedOutWrite() {
        claimed("a.1", 0, OCC, 4, "a4", T, T + 10, T + 2500);
        claimed("b.1", 0, OCC, 5, "b5", T + 2600, T + 2610, T + 5000);
        add(write("b.1", 0, 5, "b5", T + 2700, T + 2710).result(Op.APPLIED).landed(1));
        add(write("a.1", 0, 4, "a4", T + 2800, T + 2810).result(Op.APPLIED).landed(2));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.FENCED_WRITE_LANDED)).isEqualTo(1);
        assertThat(result.anomalies())
                .extracting(HistoryChecker.Anomaly::check)
                .containsOnly(Check.FENCED_WRITE_LANDED);
    }

    // ---------------------------------------------------------------- supporting checks

    @Test
    void aWriteUnderAFenceItsWriterNeverHeld_andAGuardRefusingAnEqualFence_areReported() {
        claimed("a.1", 0, OCC, 4, "a4", T, T + 10, T + 2500);
        add(write("a.1", 0, 9, "a4", T + 20, T + 30).result(Op.APPLIED).landed(1));
        add(write("a.1", 0, 4, "a4", T + 40, T + 50).result(Op.REFUSED).refusedBy(4));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.DOMAIN_WRITER)).isEqualTo(2);
    }

    @Test
    void landedWritesTheHistoryDoesNotAccountFor_areReported() {
        claimed("a.1", 0, OCC, 4, "a4", T, T + 10, T + 2500);
        add(write("a.1", 0, 4, "a4", T + 20, T + 30).result(Op.APPLIED).landed(1));

        HistoryChecker.Result result = HistoryChecker.check(
                history,
                new FinalState(true, Map.of(), Map.of(GROUP, 4L), Map.of(GROUP, new FinalState.DomainItem(4, 3))));

        assertThat(result.count(Check.DOMAIN_UNACCOUNTED)).isEqualTo(1);
    }

    @Test
    void aCommitSentAfterItsLeaseEnded_isReported() {
        claimed("a.1", 0, OCC, 1, "a1", T, T + 10, T + 2500);
        complete("a.1", 0, OCC, 1, "a1", T + 2500, T + 2600, T + 2610, "Completed", "SUCCEEDED");

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.LATE_COMMIT)).isEqualTo(1);
    }

    @Test
    void aClaimRefusedByALeaseAlreadyEnded_isReported() {
        add(Op.of("a.1", 0, Op.Kind.CLAIM)
                .atMillis(T, T + 10)
                .occurrence(JOB, OCC, GROUP)
                .result("Busy")
                .until(T - 1));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.BLOCKED_BY_ENDED_LEASE)).isEqualTo(1);
    }

    @Test
    void aReportedSuccessTheLedgerLost_andAStoredSuccessReportedFenced_areReported() {
        claimed("a.1", 0, OCC, 1, "a1", T, T + 10, T + 2500);
        complete("a.1", 0, OCC, 1, "a1", T + 2500, T + 100, T + 110, "Completed", "SUCCEEDED");
        claimed("b.1", 0, OCC2, 2, "b2", T + 200, T + 210, T + 2700);
        complete("b.1", 0, OCC2, 2, "b2", T + 2700, T + 300, T + 310, "Fenced", "FAILED");

        HistoryChecker.Result result = HistoryChecker.check(
                history,
                new FinalState(
                        true,
                        Map.of(
                                key(OCC), new FinalState.StoredRun("FAILED", "a1", 1),
                                key(OCC2), new FinalState.StoredRun("SUCCEEDED", "b2", 2)),
                        Map.of(GROUP, 2L),
                        Map.of()));

        assertThat(result.count(Check.SUCCESS_LOST)).isEqualTo(1);
        assertThat(result.count(Check.SUCCESS_UNREPORTED)).isEqualTo(1);
    }

    // ---------------------------------------------------------------- entities' own leases

    private static final String ENTITY = "tenant:acme";
    private static final String ENTITY_GROUP = "tenant";

    /**
     * The entity's own lease: A (clock 1 s behind) claims with its clock as the fence; B (clock 1 s
     * ahead) takes over with its own, higher, clock; C's clock is behind B's fence, so it takes one above
     * it. Maintenance on the job's group is taken while C runs and reports the entity runs started before
     * it as running until a term past C's end; a claim during the hold is refused; B's success is stored
     * with B's fence.
     */
    private void legalEntityHistory() {
        long a = T - 1000;
        long b = T + 505 + 1000;
        entityClaimed("a.1", -1000, OCC, a, "a1", T, T + 10, T - 1000 + 10 + 2500);
        entityClaimed("b.1", 1000, OCC, b, "b2", T + 505, T + 520, T + 520 + 1000 + 2500);
        add(entityWrite("b.1", 1000, b, "b2", T + 530, T + 540).landed(1).result(Op.APPLIED));
        add(Op.of("b.1", 1000, Op.Kind.COMPLETE)
                .atMillis(T + 560, T + 580)
                .occurrence(ENTITY, OCC, ENTITY)
                .lease(b, "b2", T + 4020)
                .outcome("SUCCEEDED")
                .result("Completed")
                .status("SUCCEEDED"));
        entityClaimed("c.1", -1000, OCC2, b + 1, "c3", T + 700, T + 710, T - 1000 + 710 + 2500);
        add(Op.of("op.1", 0, Op.Kind.MAINT_ON)
                .atMillis(T + 800, T + 820)
                .result(Op.OK)
                .until(T + 20_000)
                .taken(List.of(new Op.Held(ENTITY_GROUP, 9, "m9", T + 20_000)))
                .blocked(List.of(new Op.Held(ENTITY_GROUP, 0, "entity runs started before the hold", T + 8_300))));
        add(Op.of("d.1", 1000, Op.Kind.CLAIM)
                .atMillis(T + 900, T + 910)
                .occurrence(ENTITY, OCC2, ENTITY)
                .result("UnderMaintenance")
                .until(T + 20_000));
    }

    @Test
    void anEntitysOwnLease_withClockChosenFences_andAHoldThatWaitsOutItsRuns_hasNoAnomaly() {
        legalEntityHistory();

        HistoryChecker.Result result = HistoryChecker.check(
                history,
                new FinalState(
                        true,
                        Map.of(
                                ENTITY + "@" + Instant.ofEpochMilli(OCC),
                                new FinalState.StoredRun("SUCCEEDED", "b2", T + 1505)),
                        Map.of(ENTITY, T + 1506, ENTITY_GROUP, 9L),
                        Map.of(ENTITY, new FinalState.DomainItem(T + 1505, 1))));

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures()).containsEntry("successes", 1L).containsEntry("maintenance.holds", 1L);
    }

    @Test
    void anEntityLease_takenByAClaimInsideAHoldOnItsJobsGroup_isReported() {
        add(Op.of("op.1", 0, Op.Kind.MAINT_ON)
                .atMillis(T, T + 10)
                .result(Op.OK)
                .until(T + 10_000)
                .taken(List.of(new Op.Held(ENTITY_GROUP, 1, "m1", T + 10_000))));
        entityClaimed("a.1", 0, OCC, T + 100, "a1", T + 100, T + 110, T + 2600);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsExactly(Check.HOLD_ENTERED);
    }

    @Test
    void anEntityRunStillHoldingItsLease_whenAHoldIsReportedHeld_isReported() {
        entityClaimed("a.1", 0, OCC, T, "a1", T, T + 10, T + 2510);
        add(Op.of("op.1", 0, Op.Kind.MAINT_ON)
                .atMillis(T + 100, T + 110)
                .result(Op.OK)
                .until(T + 10_000)
                .taken(List.of(new Op.Held(ENTITY_GROUP, 1, "m1", T + 10_000))));
        add(Op.of("b.1", 0, Op.Kind.CLAIM)
                .atMillis(T + 1, T + 20)
                .occurrence("tenant:globex", OCC, "tenant:globex")
                .result("Claimed")
                .lease(1, "b1", T + 2520)
                .attempt(1));
        add(Op.of("op.2", 0, Op.Kind.MAINT_ON)
                .atMillis(T + 200, T + 210)
                .result(Op.OK)
                .until(T + 10_000)
                .taken(List.of(new Op.Held(ENTITY_GROUP, 2, "m2", T + 10_000)))
                .blocked(List.of(new Op.Held(ENTITY_GROUP, 0, "entity runs started before the hold", T + 300))));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        // Both entities' runs, claimed before either hold, outlive both reports: the first says held at
        // once, the second gives a term that ends before they do.
        assertThat(result.count(Check.HOLD_OUTLIVED)).isEqualTo(4);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.HOLD_OUTLIVED);
    }

    @Test
    void anEntityFence_belowOneAcquiredBefore_andAStoredSuccessUnderAnotherFence_areReported() {
        entityClaimed("a.1", 1000, OCC, T + 1000, "a1", T, T + 10, T + 1000 + 10 + 2500);
        add(Op.of("a.1", 1000, Op.Kind.COMPLETE)
                .atMillis(T + 100, T + 110)
                .occurrence(ENTITY, OCC, ENTITY)
                .lease(T + 1000, "a1", T + 3510)
                .outcome("SUCCEEDED")
                .result("Completed")
                .status("SUCCEEDED"));
        entityClaimed("b.1", -1000, OCC2, T - 1000 + 200, "b1", T + 200, T + 210, T - 1000 + 210 + 2500);

        HistoryChecker.Result result = HistoryChecker.check(
                history,
                new FinalState(
                        true,
                        Map.of(
                                ENTITY + "@" + Instant.ofEpochMilli(OCC),
                                new FinalState.StoredRun("SUCCEEDED", "a1", 7)),
                        Map.of(ENTITY, T + 1000),
                        Map.of()));

        assertThat(result.count(Check.SUCCESS_FENCE)).isEqualTo(1);
        assertThat(result.anomalies())
                .extracting(HistoryChecker.Anomaly::check)
                .contains(Check.FENCE_ORDER)
                .containsOnly(Check.FENCE_ORDER, Check.SUCCESS_FENCE);
    }

    // ---------------------------------------------------------------- command holds (decision 0036)

    private static final String OTHER = "pair";

    /**
     * A command hold of {@link #GROUP} and {@link #OTHER} taken at T (returned T+10) until T+3000 on the
     * operator's clock (no skew): its holder may count on it until T+1000.
     */
    private void commandHoldTaken() {
        add(Op.of("op.1", 0, Op.Kind.MAINT_ON)
                .atMillis(T, T + 10)
                .result(Op.OK)
                .until(T + 3000)
                .detail(RecordingLedger.COMMAND + "jepsen-load")
                .taken(List.of(new Op.Held(GROUP, 1, "m1", T + 3000), new Op.Held(OTHER, 1, "o1", T + 3000))));
    }

    /** A renewal of the command hold's lease on a group, as RecordingLedger records it. */
    private static Op.Builder renewal(String group, String token, long t0, long t1, long until) {
        return Op.of("op.1", 0, Op.Kind.MAINT_RENEW)
                .atMillis(t0, t1)
                .group(group)
                .held(1, token)
                .until(until);
    }

    /** An acknowledged renewal: the ledger answered with the lease, now ending at {@code until}. */
    private static Op.Builder acknowledged(String group, String token, long t0, long t1, long until) {
        return renewal(group, token, t0, t1, until).result(Op.OK).lease(1, token, until);
    }

    @Test
    void aJobLease_takenInsideAHoldExtendedByAnAcknowledgedRenewal_isAnOverlap() {
        commandHoldTaken();
        add(acknowledged(GROUP, "m1", T + 500, T + 520, T + 4500)); // counted on until T+2500 now
        claimed("a.1", 0, OCC, 2, "a2", T + 2000, T + 2010, T + 4510);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        // Without the renewal the hold ended at T+1000, before the claim.
        assertThat(result.count(Check.LEASE_OVERLAP)).isEqualTo(1);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.LEASE_OVERLAP);
        assertThat(result.figures())
                .containsEntry("op.MAINT_RENEW", 1L)
                .containsEntry("maintenance.renewalsAcknowledged", 1L)
                .containsEntry("maintenance.renewalsExtending", 1L)
                .containsEntry("maintenance.commandHolds", 1L);
    }

    @Test
    void aRenewal_extendsItsOwnGroupOnly() {
        commandHoldTaken();
        add(acknowledged(OTHER, "o1", T + 500, T + 520, T + 4500));
        claimed("a.1", 0, OCC, 2, "a2", T + 2000, T + 2010, T + 4510);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
    }

    @Test
    void aRefusedRenewal_andAnUnknownOne_extendNothing() {
        commandHoldTaken();
        // Refused: the group is no longer ours. Unknown: it may or may not have landed; the holder was
        // told nothing it may count on, and a claim after the hold's last acknowledged end is legal.
        add(renewal(GROUP, "m1", T + 500, T + 520, T + 4500).result(Op.REFUSED));
        add(renewal(OTHER, "o1", T + 530, T + 560, T + 4500).result(Op.ERROR).detail("lost response"));
        claimed("a.1", 0, OCC, 2, "a2", T + 2000, T + 2010, T + 4510);
        add(Op.of("b.1", 0, Op.Kind.CLAIM)
                .atMillis(T + 2000, T + 2010)
                .occurrence(OTHER, OCC, OTHER)
                .result("Claimed")
                .lease(2, "b2", T + 4510)
                .attempt(1));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("op.MAINT_RENEW", 2L)
                .containsEntry("maintenance.renewalsRefused", 1L)
                .containsEntry("maintenance.renewalsUnknown", 1L)
                .containsEntry("maintenance.renewalsAcknowledged", 0L)
                .containsEntry("maintenance.renewalsExtending", 0L);
    }

    /**
     * A command hold of {@link #GROUP} taken as HeldMaintenance takes it: until its wait plus its lapse,
     * T+10000 on the operator's clock (no skew), so its holder may count on it until T+8000.
     */
    private void commandHoldTakenThroughItsWait() {
        add(Op.of("op.1", 0, Op.Kind.MAINT_ON)
                .atMillis(T, T + 10)
                .result(Op.OK)
                .until(T + 10_000)
                .detail(RecordingLedger.COMMAND + "jepsen-load")
                .taken(List.of(new Op.Held(GROUP, 1, "m1", T + 10_000))));
    }

    /**
     * HeldMaintenance's first renewal, as its take ends, shortens the hold to one lapse (renewHold may):
     * acknowledged with the lease now ending at T+3000, counted on until T+1000. The tenure ends there,
     * not at the take's T+8000: a job's lease taken at T+1100, after the shortened end, is no overlap.
     */
    @Test
    void aShorteningRenewal_endsTheHoldEarlier_soAJobLeaseTakenAfterTheShortenedEnd_isNoOverlap() {
        commandHoldTakenThroughItsWait();
        add(acknowledged(GROUP, "m1", T + 20, T + 40, T + 3000));
        claimed("a.1", 0, OCC, 2, "a2", T + 1100, T + 1110, T + 3610);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("maintenance.renewalsAcknowledged", 1L)
                .containsEntry("maintenance.renewalsShortening", 1L)
                .containsEntry("maintenance.renewalsExtending", 0L);
    }

    /** The shortened hold still holds until its shortened end: a job's lease taken at T+800 overlaps it. */
    @Test
    void aShorteningRenewal_stillHoldsTheGroupUntilItsShortenedEnd() {
        commandHoldTakenThroughItsWait();
        add(acknowledged(GROUP, "m1", T + 20, T + 40, T + 3000));
        claimed("a.1", 0, OCC, 2, "a2", T + 790, T + 800, T + 3300);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.LEASE_OVERLAP)).isEqualTo(1);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.LEASE_OVERLAP);
    }

    /**
     * After an acknowledged shortening, a later renewal lengthens the hold again: each acknowledged
     * renewal sets the end to what the ledger answered, in the order the answers came. The second sets
     * T+3500 (counted on until T+1500): a job's lease taken at T+1400 overlaps, one at T+1600 does not.
     */
    @Test
    void renewals_setTheEnd_inTheOrderTheyWereAnswered() {
        commandHoldTakenThroughItsWait();
        add(acknowledged(GROUP, "m1", T + 20, T + 40, T + 3000));
        add(acknowledged(GROUP, "m1", T + 500, T + 520, T + 3500));
        claimed("a.1", 0, OCC, 2, "a2", T + 1390, T + 1400, T + 3400);
        complete("a.1", 0, OCC, 2, "a2", T + 3400, T + 1450, T + 1460, "Completed", "SUCCEEDED");
        claimed("b.1", 0, OCC2, 3, "b3", T + 1590, T + 1600, T + 4100);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).singleElement().satisfies(a -> {
            assertThat(a.check()).isEqualTo(Check.LEASE_OVERLAP);
            assertThat(a.message()).contains("fence 2 from");
        });
        assertThat(result.figures())
                .containsEntry("maintenance.renewalsShortening", 1L)
                .containsEntry("maintenance.renewalsExtending", 1L);
    }

    /**
     * An unknown renewal asking for an end earlier than the hold's may have shortened it: the checker
     * assumes it did (the earlier of the two ends), so a job's lease taken after the end it asked for,
     * legal if it landed, is no overlap. (An unknown one asking for a later end moves nothing: {@link
     * #aRefusedRenewal_andAnUnknownOne_extendNothing}.)
     */
    @Test
    void anUnknownRenewal_thatMayHaveShortenedTheHold_endsItAtTheEarlierEnd() {
        commandHoldTakenThroughItsWait();
        add(renewal(GROUP, "m1", T + 20, T + 60, T + 3000).result(Op.ERROR).detail("lost response"));
        claimed("a.1", 0, OCC, 2, "a2", T + 1100, T + 1110, T + 3610);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("maintenance.renewalsUnknown", 1L)
                .containsEntry("maintenance.renewalsCutting", 1L)
                .containsEntry("maintenance.renewalsShortening", 0L);
    }

    /**
     * An acknowledged renewal answered after the hold had ended by its holder's reckoning (T+1000) sets
     * no later end (see {@link #aRenewalAnsweredAfterTheHoldHadLapsed_extendsNothing}), but one asking
     * for an earlier end may have landed as soon as it was sent, at T+800: it cuts the hold to the end it
     * set (T+2500, counted on until T+500), as an unknown one would. A job's lease taken at T+900 is
     * then no overlap: a claimant whose clock was ahead by the tolerated skew may have taken it legally.
     */
    @Test
    void aShorteningRenewal_answeredAfterTheHoldHadEnded_stillCutsIt() {
        commandHoldTaken();
        add(acknowledged(GROUP, "m1", T + 800, T + 1200, T + 2500));
        claimed("a.1", 0, OCC, 2, "a2", T + 890, T + 900, T + 3400);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("maintenance.renewalsCutting", 1L)
                .containsEntry("maintenance.renewalsShortening", 0L)
                .containsEntry("maintenance.renewalsExtending", 0L);
    }

    /**
     * The operator's clock is 1 s behind, an entity claimant's 1 s ahead (the widest pair tolerated).
     * The hold on the entity's job group ends at T+2000 on the operator's clock, so it may count on it
     * until T+1000 (reference); at T+1100 the claimant's clock is past the hold's end and its claim of the
     * entity's own lease is granted. The operator's renewal, sent while its own clock said the hold was
     * in force, is answered at T+1200: too late to have held the group all along. Counted, it would make
     * that legal claim an entry into the hold.
     */
    @Test
    void aRenewalAnsweredAfterTheHoldHadLapsed_extendsNothing() {
        add(Op.of("op.1", -1000, Op.Kind.MAINT_ON)
                .atMillis(T, T + 10)
                .result(Op.OK)
                .until(T + 2000)
                .detail(RecordingLedger.COMMAND + "jepsen-load")
                .taken(List.of(new Op.Held(ENTITY_GROUP, 1, "m1", T + 2000))));
        entityClaimed("a.1", 1000, OCC, T + 2100, "a1", T + 1100, T + 1150, T + 1150 + 1000 + 2500);
        add(Op.of("op.1", -1000, Op.Kind.MAINT_RENEW)
                .atMillis(T + 900, T + 1200)
                .group(ENTITY_GROUP)
                .held(1, "m1")
                .until(T + 5900)
                .result(Op.OK)
                .lease(1, "m1", T + 5900));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("maintenance.renewalsAcknowledged", 1L)
                .containsEntry("maintenance.renewalsExtending", 0L);
    }

    /**
     * A command hold given back for {@link #GROUP} only. The job's claim of it was sent after the
     * release was and returned before the release's answer did: the release landed first, so the hold
     * ended when it was sent (as for maintenance off), not when its answer came. The other group is
     * still held, and a job's lease taken there is an overlap.
     */
    @Test
    void aRelease_endsTheHoldOfTheLeasesItNames_whenItIsSent() {
        add(Op.of("op.1", 0, Op.Kind.MAINT_ON)
                .atMillis(T, T + 10)
                .result(Op.OK)
                .until(T + 10_000)
                .detail(RecordingLedger.COMMAND + "jepsen-load")
                .taken(List.of(new Op.Held(GROUP, 1, "m1", T + 10_000), new Op.Held(OTHER, 1, "o1", T + 10_000))));
        add(Op.of("op.1", 0, Op.Kind.MAINT_RELEASE)
                .atMillis(T + 1000, T + 1050)
                .taken(List.of(new Op.Held(GROUP, 1, "m1", T + 10_000)))
                .result(Op.OK)
                .detail(GROUP));
        claimed("a.1", 0, OCC, 2, "a2", T + 1010, T + 1020, T + 3520);
        add(Op.of("b.1", 0, Op.Kind.CLAIM)
                .atMillis(T + 1100, T + 1110)
                .occurrence(OTHER, OCC, OTHER)
                .result("Claimed")
                .lease(2, "b2", T + 3610)
                .attempt(1));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.LEASE_OVERLAP)).isEqualTo(1);
        assertThat(result.anomalies())
                .singleElement()
                .satisfies(a -> assertThat(a.message()).startsWith(OTHER + ":"));
        assertThat(result.figures())
                .containsEntry("op.MAINT_RELEASE", 1L)
                .containsEntry("maintenance.commandHoldsAbandoned", 0L);
    }

    /**
     * A command that crashed after two acknowledged renewals and an unknown one: its hold ends where
     * the last acknowledged renewal left it (T+4500, counted on until T+2500), neither where the take
     * left it nor where the unknown renewal asked. A job's lease taken at T+2410 overlaps it; one taken
     * at T+2610 does not.
     */
    @Test
    void aCrashedCommandsHold_endsAtItsLastAcknowledgedRenewal() {
        commandHoldTaken();
        add(acknowledged(GROUP, "m1", T + 500, T + 510, T + 4000));
        add(acknowledged(GROUP, "m1", T + 1000, T + 1010, T + 4500));
        add(renewal(GROUP, "m1", T + 1500, T + 1600, T + 5000).result(Op.ERROR).detail("lost response"));
        claimed("a.1", 0, OCC, 2, "a2", T + 2400, T + 2410, T + 5000);
        complete("a.1", 0, OCC, 2, "a2", T + 5000, T + 2450, T + 2460, "Completed", "SUCCEEDED");
        claimed("b.1", 0, OCC2, 3, "b3", T + 2600, T + 2610, T + 5100);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).singleElement().satisfies(a -> {
            assertThat(a.check()).isEqualTo(Check.LEASE_OVERLAP);
            assertThat(a.message()).contains("fence 2 from");
        });
        assertThat(result.figures())
                .containsEntry("maintenance.commandHolds", 1L)
                .containsEntry("maintenance.commandHoldsAbandoned", 1L)
                .containsEntry("maintenance.renewalsAcknowledged", 2L)
                .containsEntry("maintenance.renewalsUnknown", 1L)
                .containsEntry("maintenance.renewalsExtending", 2L);
    }

    @Test
    void historyLines_surviveTheRoundTripThroughTheirFiles(@TempDir Path dir) {
        legalHistory();
        // A renewal and a release of the legal history's hold, before it is lifted: the new kinds too.
        add(Op.of("op.1", 0, Op.Kind.MAINT_RENEW)
                .atMillis(T + 800, T + 810)
                .group(GROUP)
                .held(3, "m3")
                .until(T + 6000)
                .result(Op.OK)
                .lease(3, "m3", T + 6000));
        add(Op.of("op.1", 0, Op.Kind.MAINT_RELEASE)
                .atMillis(T + 850, T + 860)
                .taken(List.of(new Op.Held(GROUP, 3, "m3", T + 6000)))
                .result(Op.OK)
                .detail(GROUP));
        try (HistoryLog log = HistoryLog.append(HistoryLog.fileFor(dir, "mixed"))) {
            history.forEach(log::write);
        }

        List<Op> read = HistoryLog.readAll(dir);

        assertThat(read).containsExactlyInAnyOrderElementsOf(history);
        assertThat(HistoryChecker.check(read, legalState()).anomalies()).isEmpty();
    }

    // ---------------------------------------------------------------- building histories

    // ---------------------------------------------------------------- long jobs (decision 0039)

    private static final String LONG = "close";
    private static final String BATCH = "batch";
    /** A long claim's extended lease: a minute and LongRun.LEASE_SLACK past its claim. */
    private static final long BOUND = 17 * 60_000;

    private static String longKey(long occurrence) {
        return LONG + "@" + Instant.ofEpochMilli(occurrence);
    }

    private static String name(long occurrence, long fence) {
        return "jepsen-close-" + occurrence + "-f" + fence;
    }

    private void longClaimed(String proc, long occ, long fence, String token, long t0, long t1) {
        add(Op.of(proc, 0, Op.Kind.CLAIM)
                .atMillis(t0, t1)
                .occurrence(LONG, occ, BATCH)
                .result("Claimed")
                .lease(fence, token, t1 + 7500)
                .attempt(1));
    }

    private void extended(String proc, long occ, long fence, String token, long t0, long t1) {
        add(Op.of(proc, 0, Op.Kind.EXTEND)
                .atMillis(t0, t1)
                .occurrence(LONG, occ, BATCH)
                .result(Op.OK)
                .lease(fence, token, t0 + BOUND)
                .until(t0 + BOUND));
    }

    private void noted(String proc, long occ, long fence, String token, int planned, long t0) {
        add(Op.of(proc, 0, Op.Kind.EXEC_NOTE)
                .atMillis(t0, t0 + 5)
                .occurrence(LONG, occ, BATCH)
                .lease(fence, token, t0 + BOUND)
                .execution(name(occ, fence))
                .attempt(planned)
                .result("NOTED"));
    }

    private void started(String proc, long occ, long fence, String token, String execution, long t0) {
        add(Op.of(proc, 0, Op.Kind.EXEC_START)
                .atMillis(t0, t0 + 5)
                .occurrence(LONG, occ, BATCH)
                .lease(fence, token, t0 + BOUND)
                .execution(execution)
                .result("Started"));
    }

    private void effect(String proc, long occ, long fence, String token, String chunk, long t0, long seq) {
        add(Op.of(proc, 0, Op.Kind.CHUNK_EFFECT)
                .via("job")
                .atMillis(t0, t0 + 5)
                .occurrence(LONG, occ, BATCH)
                .held(fence, token)
                .chunk(chunk)
                .result(Op.APPLIED)
                .landed(seq));
    }

    private void chunkRecorded(String proc, long occ, long fence, String token, String chunk, long t0) {
        add(Op.of(proc, 0, Op.Kind.CHUNK)
                .atMillis(t0, t0 + 5)
                .occurrence(LONG, occ, BATCH)
                .lease(fence, token, t0 + BOUND)
                .chunk(chunk)
                .outcome("SUCCEEDED")
                .result("Recorded")
                .status("SUCCEEDED")
                .attempt(1));
    }

    private void chunkIntent(String proc, long occ, long fence, String token, String chunk, long t0) {
        add(Op.of(proc, 0, Op.Kind.CHUNK_INTENT)
                .atMillis(t0, t0)
                .occurrence(LONG, occ, BATCH)
                .lease(fence, token, t0 + BOUND)
                .chunk(chunk)
                .outcome("SUCCEEDED"));
    }

    private void longCompleted(String proc, long occ, long fence, String token, long t0) {
        add(Op.of(proc, 0, Op.Kind.COMPLETE)
                .atMillis(t0, t0 + 10)
                .occurrence(LONG, occ, BATCH)
                .lease(fence, token, t0 + BOUND)
                .attempt(2)
                .outcome("SUCCEEDED")
                .result("Completed")
                .status("SUCCEEDED"));
    }

    /**
     * A: claims OCC and is killed before its start. B: claims it again once A's lease lapsed, extends,
     * notes, starts, plans two chunks, runs and records both, completes; then the short job of the group
     * claims. C: claims OCC2, starts its execution, lands chunk c1's side effect and is killed before its
     * record: the execution stays RUNNING, the group held to the bound.
     */
    private void legalLongHistory() {
        longClaimed("a.1", OCC, 1, "a1", T, T + 10);
        add(Op.of("a.1", 0, Op.Kind.KILL)
                .atMillis(T + 20, T + 20)
                .occurrence(LONG, OCC, BATCH)
                .held(1, "a1"));
        longClaimed("b.1", OCC, 2, "b2", T + 7600, T + 7610);
        extended("b.1", OCC, 2, "b2", T + 7620, T + 7630);
        noted("b.1", OCC, 2, "b2", -1, T + 7640);
        started("b.1", OCC, 2, "b2", name(OCC, 2), T + 7650);
        noted("b.1", OCC, 2, "b2", 2, T + 7660);
        effect("b.1", OCC, 2, "b2", "c1", T + 7670, 1);
        chunkRecorded("b.1", OCC, 2, "b2", "c1", T + 7680);
        effect("b.1", OCC, 2, "b2", "c2", T + 7670, 1);
        chunkRecorded("b.1", OCC, 2, "b2", "c2", T + 7690);
        longCompleted("b.1", OCC, 2, "b2", T + 7700);
        add(Op.of("d.1", 0, Op.Kind.CLAIM)
                .atMillis(T + 7720, T + 7730)
                .occurrence("tidy", OCC, BATCH)
                .result("Claimed")
                .lease(3, "d3", T + 7730 + 2500)
                .attempt(1));
        longClaimed("c.1", OCC2, 4, "c4", T + 9000, T + 9010);
        extended("c.1", OCC2, 4, "c4", T + 9020, T + 9030);
        noted("c.1", OCC2, 4, "c4", -1, T + 9040);
        started("c.1", OCC2, 4, "c4", name(OCC2, 4), T + 9050);
        noted("c.1", OCC2, 4, "c4", 2, T + 9060);
        effect("c.1", OCC2, 4, "c4", "c1", T + 9070, 1);
        add(Op.of("c.1", 0, Op.Kind.KILL)
                .atMillis(T + 9080, T + 9080)
                .occurrence(LONG, OCC2, BATCH)
                .held(4, "c4")
                .chunk("c1"));
    }

    private FinalState legalLongState() {
        return new FinalState(
                true,
                Map.of(
                        longKey(OCC), new FinalState.StoredRun("SUCCEEDED", "b2", 2),
                        longKey(OCC2), new FinalState.StoredRun("RUNNING", "c4", 4)),
                Map.of(BATCH, 4L),
                Map.of(),
                Map.of(
                        longKey(OCC),
                        new FinalState.LongState(
                                name(OCC, 2),
                                2,
                                Map.of(
                                        "c1", new FinalState.StoredChunk("SUCCEEDED", 2, 1),
                                        "c2", new FinalState.StoredChunk("SUCCEEDED", 2, 1)),
                                Map.of(
                                        "c1", new FinalState.DomainItem(2, 1),
                                        "c2", new FinalState.DomainItem(2, 1))),
                        longKey(OCC2),
                        new FinalState.LongState(
                                name(OCC2, 4), 2, Map.of(), Map.of("c1", new FinalState.DomainItem(4, 1)))),
                List.of(
                        new FinalState.StoredExecution(name(OCC, 2), longKey(OCC), 2, "SUCCEEDED"),
                        new FinalState.StoredExecution(name(OCC2, 4), longKey(OCC2), 4, "RUNNING")));
    }

    @Test
    void aLongHistory_withAKillBeforeTheStart_andAnExecutionLeftRunningByAKilledDriver_hasNoAnomaly() {
        legalLongHistory();

        HistoryChecker.Result result = HistoryChecker.check(history, legalLongState());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("long.executionsStarted", 2L)
                .containsEntry("long.chunkSuccessesRecorded", 2L)
                .containsEntry("long.occurrencesSucceeded", 1L)
                .containsEntry("long.killsBeforeStart", 1L)
                .containsEntry("long.killsBeforeChunkRecord", 1L)
                .containsEntry("long.executionsLeftRunning", 1L);
    }

    @Test
    void aShortClaim_insideALongClaimsExtendedLease_isAnOverlap() {
        longClaimed("b.1", OCC, 2, "b2", T, T + 10);
        extended("b.1", OCC, 2, "b2", T + 20, T + 30);
        add(Op.of("d.1", 0, Op.Kind.CLAIM)
                .atMillis(T + 60_000, T + 60_010)
                .occurrence("tidy", OCC, BATCH)
                .result("Claimed")
                .lease(3, "d3", T + 62_500)
                .attempt(1));

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.LEASE_OVERLAP);
    }

    @Test
    void oneClaim_startingTwoExecutions_andStepFunctionsHoldingTwoOfOneFence_areReported() {
        longClaimed("b.1", OCC, 2, "b2", T, T + 10);
        extended("b.1", OCC, 2, "b2", T + 20, T + 30);
        started("b.1", OCC, 2, "b2", name(OCC, 2), T + 40);
        started("b.1", OCC, 2, "b2", name(OCC, 2) + "-again", T + 50);
        FinalState state = new FinalState(
                true,
                Map.of(longKey(OCC), new FinalState.StoredRun("RUNNING", "b2", 2)),
                Map.of(BATCH, 2L),
                Map.of(),
                Map.of(longKey(OCC), new FinalState.LongState(name(OCC, 2), -1, Map.of(), Map.of())),
                List.of(
                        new FinalState.StoredExecution(name(OCC, 2), longKey(OCC), 2, "RUNNING"),
                        new FinalState.StoredExecution(name(OCC, 2) + "-again", longKey(OCC), 2, "RUNNING"),
                        new FinalState.StoredExecution("nobody-started-me", longKey(OCC), 7, "RUNNING")));

        HistoryChecker.Result result = HistoryChecker.check(history, state);

        // Two starts of fence 2 in the history; two of fence 2 on Step Functions; one nobody started.
        assertThat(result.count(Check.EXECUTION_TWICE)).isEqualTo(3);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.EXECUTION_TWICE);
    }

    @Test
    void twoExecutionsOfOneOccurrence_whoseClaimsHeldAtOnce_areReported() {
        longClaimed("a.1", OCC, 1, "a1", T, T + 10);
        extended("a.1", OCC, 1, "a1", T + 20, T + 30);
        started("a.1", OCC, 1, "a1", name(OCC, 1), T + 40);
        longClaimed("b.1", OCC, 2, "b2", T + 1000, T + 1010);
        started("b.1", OCC, 2, "b2", name(OCC, 2), T + 1040);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.EXECUTION_TWICE)).isEqualTo(1);
        assertThat(result.anomalies())
                .extracting(HistoryChecker.Anomaly::check)
                .containsOnly(Check.EXECUTION_TWICE, Check.LEASE_OVERLAP);
    }

    @Test
    void aChunksSuccessRecordedTwice_andALedgerRecordNoAttemptAccountsFor_areReported() {
        longClaimed("b.1", OCC, 2, "b2", T, T + 10);
        effect("b.1", OCC, 2, "b2", "c1", T + 20, 1);
        chunkRecorded("b.1", OCC, 2, "b2", "c1", T + 30);
        chunkRecorded("b.1", OCC, 2, "b2", "c1", T + 40);
        FinalState state = new FinalState(
                true,
                Map.of(longKey(OCC), new FinalState.StoredRun("RUNNING", "b2", 2)),
                Map.of(BATCH, 2L),
                Map.of(),
                Map.of(
                        longKey(OCC),
                        new FinalState.LongState(
                                name(OCC, 2),
                                2,
                                Map.of(
                                        "c1", new FinalState.StoredChunk("SUCCEEDED", 2, 1),
                                        "c2", new FinalState.StoredChunk("SUCCEEDED", 2, 1)),
                                Map.of("c1", new FinalState.DomainItem(2, 1)))),
                List.of());

        HistoryChecker.Result result = HistoryChecker.check(history, state);

        // c1 recorded twice; c2 stored as succeeded with no attempt recorded (and no side effect landed).
        assertThat(result.count(Check.CHUNK_TWICE)).isEqualTo(2);
        assertThat(result.anomalies())
                .extracting(HistoryChecker.Anomaly::check)
                .containsOnly(Check.CHUNK_TWICE, Check.CHUNK_EFFECT_STALE);
    }

    /**
     * The CI run's shape (close@2026-12-08T00:49:00Z, fence 30): the driver runs two chunks at once; c1's
     * thread halts the process before c1's record while c2's record, already sent, lands in the ledger; c2's
     * answer is never written. Only its intent, written before the request, shows it was in flight.
     */
    private void c2RecordInFlightWhenItsProcessHalted(boolean halted) {
        longClaimed("c.1", OCC2, 4, "c4", T, T + 10);
        extended("c.1", OCC2, 4, "c4", T + 20, T + 30);
        noted("c.1", OCC2, 4, "c4", -1, T + 40);
        started("c.1", OCC2, 4, "c4", name(OCC2, 4), T + 50);
        noted("c.1", OCC2, 4, "c4", 2, T + 60);
        effect("c.1", OCC2, 4, "c4", "c1", T + 70, 1);
        effect("c.1", OCC2, 4, "c4", "c2", T + 72, 1);
        chunkIntent("c.1", OCC2, 4, "c4", "c2", T + 90);
        if (halted) {
            add(Op.of("c.1", 0, Op.Kind.KILL)
                    .atMillis(T + 73, T + 73)
                    .occurrence(LONG, OCC2, BATCH)
                    .held(4, "c4")
                    .chunk("c1"));
        }
    }

    private static FinalState c2StoredAsSucceeded() {
        return new FinalState(
                true,
                Map.of(longKey(OCC2), new FinalState.StoredRun("RUNNING", "c4", 4)),
                Map.of(BATCH, 4L),
                Map.of(),
                Map.of(
                        longKey(OCC2),
                        new FinalState.LongState(
                                name(OCC2, 4),
                                2,
                                Map.of("c2", new FinalState.StoredChunk("SUCCEEDED", 4, 1)),
                                Map.of(
                                        "c1", new FinalState.DomainItem(4, 1),
                                        "c2", new FinalState.DomainItem(4, 1)))),
                List.of(new FinalState.StoredExecution(name(OCC2, 4), longKey(OCC2), 4, "RUNNING")));
    }

    @Test
    void aChunkRecordInFlight_whenAnotherChunksThreadHaltedTheProcess_mayHaveLanded() {
        c2RecordInFlightWhenItsProcessHalted(true);

        HistoryChecker.Result result = HistoryChecker.check(history, c2StoredAsSucceeded());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("long.chunkRecordsCutOff", 1L)
                .containsEntry("long.chunkSuccessesRecorded", 0L);
    }

    @Test
    void anUnansweredChunkIntent_ofAProcessThatDidNotHalt_accountsForNoLedgerSuccess() {
        c2RecordInFlightWhenItsProcessHalted(false);

        HistoryChecker.Result result = HistoryChecker.check(history, c2StoredAsSucceeded());

        assertThat(result.count(Check.CHUNK_TWICE)).isEqualTo(1);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.CHUNK_TWICE);
    }

    @Test
    void aChunkIntent_answeredFenced_accountsForNoLedgerSuccess_evenInAHaltedProcess() {
        c2RecordInFlightWhenItsProcessHalted(true);
        add(Op.of("c.1", 0, Op.Kind.CHUNK)
                .atMillis(T + 90, T + 95)
                .occurrence(LONG, OCC2, BATCH)
                .lease(4, "c4", T + 90 + BOUND)
                .chunk("c2")
                .outcome("SUCCEEDED")
                .result("Fenced"));

        HistoryChecker.Result result = HistoryChecker.check(history, c2StoredAsSucceeded());

        assertThat(result.count(Check.CHUNK_TWICE)).isEqualTo(1);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.CHUNK_TWICE);
        assertThat(result.figures()).containsEntry("long.chunkRecordsCutOff", 0L);
    }

    @Test
    void aStaleChunkEffect_landingAfterANewerOne_isReported() {
        longClaimed("a.1", OCC, 1, "a1", T, T + 10);
        longClaimed("b.1", OCC, 2, "b2", T + 7600, T + 7610);
        effect("b.1", OCC, 2, "b2", "c1", T + 7620, 1);
        effect("a.1", OCC, 1, "a1", "c1", T + 7630, 2);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.CHUNK_EFFECT_STALE)).isEqualTo(1);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.CHUNK_EFFECT_STALE);
    }

    @Test
    void aChunkRecordedAsSucceeded_whoseSideEffectNeverLandedUnderItsFence_isReported() {
        legalLongHistory();
        FinalState legal = legalLongState();
        Map<String, FinalState.LongState> runs = new java.util.HashMap<>(legal.longRuns());
        FinalState.LongState occ = runs.get(longKey(OCC));
        // c2's item holds fence 1: the fence-2 effect the history landed is not what the table holds.
        runs.put(
                longKey(OCC),
                new FinalState.LongState(
                        occ.noted(),
                        occ.planned(),
                        occ.chunks(),
                        Map.of("c1", new FinalState.DomainItem(2, 1), "c2", new FinalState.DomainItem(1, 1))));
        FinalState state =
                new FinalState(true, legal.runs(), legal.lockFences(), legal.domain(), runs, legal.executions());

        HistoryChecker.Result result = HistoryChecker.check(history, state);

        assertThat(result.count(Check.CHUNK_EFFECT_STALE)).isEqualTo(1);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.CHUNK_EFFECT_STALE);
    }

    @Test
    void aLongOccurrenceCompletedSucceeded_withAPlannedChunkNotRecorded_isReported() {
        longClaimed("b.1", OCC, 2, "b2", T, T + 10);
        extended("b.1", OCC, 2, "b2", T + 20, T + 30);
        started("b.1", OCC, 2, "b2", name(OCC, 2), T + 40);
        noted("b.1", OCC, 2, "b2", 2, T + 50);
        effect("b.1", OCC, 2, "b2", "c1", T + 60, 1);
        chunkRecorded("b.1", OCC, 2, "b2", "c1", T + 70);
        longCompleted("b.1", OCC, 2, "b2", T + 80);
        FinalState state = new FinalState(
                true,
                Map.of(longKey(OCC), new FinalState.StoredRun("SUCCEEDED", "b2", 2)),
                Map.of(BATCH, 2L),
                Map.of(),
                Map.of(
                        longKey(OCC),
                        new FinalState.LongState(
                                name(OCC, 2),
                                2,
                                Map.of("c1", new FinalState.StoredChunk("SUCCEEDED", 2, 1)),
                                Map.of("c1", new FinalState.DomainItem(2, 1)))),
                List.of(new FinalState.StoredExecution(name(OCC, 2), longKey(OCC), 2, "SUCCEEDED")));

        HistoryChecker.Result result = HistoryChecker.check(history, state);

        // Once in the history (1 of 2 before the completion), once in the end (1 of 2 stored).
        assertThat(result.count(Check.LONG_INCOMPLETE)).isEqualTo(2);
        assertThat(result.anomalies()).extracting(HistoryChecker.Anomaly::check).containsOnly(Check.LONG_INCOMPLETE);
    }

    private void add(Op.Builder op) {
        history.add(op.build());
    }

    private static String key(long occurrence) {
        return JOB + "@" + Instant.ofEpochMilli(occurrence);
    }

    /** A granted claim; times on the reference clock, the lease's end on the holder's clock. */
    private void claimed(String proc, long skew, long occ, long fence, String token, long t0, long t1, long until) {
        add(Op.of(proc, skew, Op.Kind.CLAIM)
                .atMillis(t0, t1)
                .occurrence(JOB, occ, GROUP)
                .result("Claimed")
                .lease(fence, token, until)
                .attempt(1));
    }

    /** A granted claim of {@code job} on the lock item {@code lease} (a slot of a group of capacity N). */
    private void claimedOn(String proc, String job, String lease, long fence, String token, long t0, long t1) {
        add(Op.of(proc, 0, Op.Kind.CLAIM)
                .atMillis(t0, t1)
                .occurrence(job, OCC, lease)
                .result("Claimed")
                .lease(fence, token, t1 + 2500)
                .attempt(1));
    }

    // ---------------------------------------------------------------- a group of capacity N (decision 0051)

    /** Two of the group's jobs on its two slots at once, the third after one ended: legal. */
    @Test
    void twoHoldersOfAGroupOfCapacityTwo_onItsTwoSlots_andAThirdAfterOneEnded_areNoAnomaly() {
        claimedOn("a.1", JepsenJobs.GAMMA, JepsenJobs.WIDE, 1, "g1", T, T + 10);
        claimedOn("b.1", JepsenJobs.DELTA, JepsenJobs.WIDE + "#2", 1, "d1", T + 100, T + 110);
        claimedOn("c.1", JepsenJobs.OMEGA, JepsenJobs.WIDE, 2, "o2", T + 600, T + 610);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures()).containsEntry("group.wide.mostAtOnce", 2L);
    }

    /** Three holders at once over three lock items of a group of capacity 2: no item overlaps, the group does. */
    @Test
    void threeHoldersOfAGroupOfCapacityTwo_atOnce_areReported_thoughNoSlotOverlaps() {
        claimedOn("a.1", JepsenJobs.GAMMA, JepsenJobs.WIDE, 1, "g1", T, T + 10);
        claimedOn("b.1", JepsenJobs.DELTA, JepsenJobs.WIDE + "#2", 1, "d1", T + 100, T + 110);
        claimedOn("c.1", JepsenJobs.OMEGA, JepsenJobs.WIDE + "#3", 1, "o1", T + 200, T + 210);

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.count(Check.GROUP_OVER_CAPACITY)).isEqualTo(1);
        assertThat(result.anomalies())
                .extracting(HistoryChecker.Anomaly::check)
                .containsOnly(Check.GROUP_OVER_CAPACITY);
        assertThat(result.figures()).containsEntry("group.wide.mostAtOnce", 3L);
    }

    /** A granted claim of the entity's own lease {@code tenant:acme}, as {@link #claimed} for a job's. */
    private void entityClaimed(
            String proc, long skew, long occ, long fence, String token, long t0, long t1, long until) {
        add(Op.of(proc, skew, Op.Kind.CLAIM)
                .atMillis(t0, t1)
                .occurrence(ENTITY, occ, ENTITY)
                .result("Claimed")
                .lease(fence, token, until)
                .attempt(1));
    }

    private static Op.Builder entityWrite(String proc, long skew, long fence, String token, long t0, long t1) {
        return Op.of(proc, skew, Op.Kind.DOMAIN_WRITE)
                .via("job")
                .atMillis(t0, t1)
                .occurrence(ENTITY, OCC, ENTITY)
                .lease(fence, token, 0);
    }

    private void complete(
            String proc,
            long skew,
            long occ,
            long fence,
            String token,
            long until,
            long t0,
            long t1,
            String result,
            String status) {
        add(Op.of(proc, skew, Op.Kind.COMPLETE)
                .atMillis(t0, t1)
                .occurrence(JOB, occ, GROUP)
                .lease(fence, token, until)
                .outcome("SUCCEEDED")
                .result(result)
                .status(status));
    }

    private static Op.Builder write(String proc, long skew, long fence, String token, long t0, long t1) {
        return Op.of(proc, skew, Op.Kind.DOMAIN_WRITE)
                .via("job")
                .atMillis(t0, t1)
                .occurrence(JOB, OCC, GROUP)
                .lease(fence, token, 0);
    }
}
