package dev.punctual.jepsen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.jepsen.HistoryChecker.Anomaly;
import dev.punctual.jepsen.HistoryChecker.Check;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checker's operator-skip checks on hand-made histories: the legal races (a claim first, a skip
 * first, an unskip in between, a claim given back before the skip) pass, and each broken one is
 * reported, so the suite's skip checks cannot pass by checking nothing.
 */
class SkipChecksTest {

    private static final long T = 1_800_000_000_000L;
    private static final long OCC = T - 600_000;
    private static final String JOB = "solo";
    private static final String KEY = JOB + "@" + Instant.ofEpochMilli(OCC);

    private final List<Op> history = new ArrayList<>();

    @Test
    void aSkipPlannedFirst_refusingTheLaterClaims_andHeldInTheEnd_isLegal() {
        skip(T, T + 10, "Planned");
        claim("w1.1", T + 20, T + 30, "OperatorSkipped", null);
        add(Op.of("w1.1", 0, Op.Kind.SKIP_ACT)
                .atMillis(T + 40, T + 50)
                .occurrence(JOB, OCC, null)
                .result(Op.OK));
        claim("w2.1", T + 60, T + 70, "OperatorSkipped", null);

        HistoryChecker.Result result = HistoryChecker.check(history, storedSkip());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures())
                .containsEntry("skips.planned", 1L)
                .containsEntry("skips.met", 1L)
                .containsEntry("claims.operatorSkipped", 2L);
    }

    @Test
    void aClaimFirst_refusingTheSkip_isLegal() {
        claim("w1.1", T, T + 10, "Claimed", "a1");
        skip(T + 20, T + 30, "AlreadyStarted");

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures()).containsEntry("skips.refused", 1L).containsEntry("skips.planned", 0L);
    }

    @Test
    void aClaimAfterAPlannedSkip_isReported() {
        skip(T, T + 10, "Planned");
        claim("w1.1", T + 20, T + 30, "Claimed", "a1");

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(checks(result)).containsExactly(Check.SKIP_IGNORED);
    }

    @Test
    void aClaimRacingAPlannedSkip_bothWinning_isReported() {
        claim("w1.1", T, T + 20, "Claimed", "a1");
        skip(T + 5, T + 25, "Planned");

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(checks(result)).containsExactly(Check.SKIP_IGNORED);
    }

    @Test
    void aClaimAfterAnUnskipRemovedThePlannedSkip_isLegal() {
        skip(T, T + 10, "Planned");
        add(Op.of("op0.1", 0, Op.Kind.UNSKIP)
                .atMillis(T + 20, T + 30)
                .occurrence(JOB, OCC, null)
                .result("Removed"));
        claim("w1.1", T + 40, T + 50, "Claimed", "a1");

        HistoryChecker.Result result = HistoryChecker.check(history, FinalState.unknown());

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures()).containsEntry("skips.removed", 1L);
    }

    @Test
    void anUnskipWhoseCallFailed_mayHaveRemovedTheSkip_soAClaimAfterItIsLegal() {
        skip(T, T + 10, "Planned");
        add(Op.of("op0.1", 0, Op.Kind.UNSKIP)
                .atMillis(T + 20, T + 30)
                .occurrence(JOB, OCC, null)
                .result(Op.ERROR));
        claim("w1.1", T + 40, T + 50, "Claimed", "a1");

        assertThat(HistoryChecker.check(history, FinalState.unknown()).anomalies())
                .isEmpty();
    }

    @Test
    void aClaimGivenBackBeforeTheSkip_letsTheSkipBePlanned() {
        claim("w1.1", T, T + 10, "Claimed", "a1");
        add(Op.of("w1.1", 0, Op.Kind.COMPLETE)
                .atMillis(T + 20, T + 30)
                .occurrence(JOB, OCC, JOB)
                .lease(1, "a1", T + 2500)
                .outcome("SKIPPED")
                .result("Completed")
                .status("SKIPPED"));
        skip(T + 25, T + 40, "Planned");

        assertThat(HistoryChecker.check(history, FinalState.unknown()).anomalies())
                .isEmpty();
    }

    @Test
    void aClaimRefusedAsOperatorSkipped_withNoSkipPlanned_isReported() {
        claim("w1.1", T, T + 10, "OperatorSkipped", null);

        assertThat(checks(HistoryChecker.check(history, FinalState.unknown()))).containsExactly(Check.SKIP_UNFOUNDED);
    }

    @Test
    void aSkipWhoseCallFailed_mayHaveBeenPlanned_soARefusalAfterItIsLegal() {
        skip(T, T + 10, Op.ERROR);
        claim("w1.1", T + 20, T + 30, "OperatorSkipped", null);

        assertThat(HistoryChecker.check(history, FinalState.unknown()).anomalies())
                .isEmpty();
    }

    @Test
    void aPlannedSkipTheLedgerDoesNotHoldInTheEnd_isReported() {
        skip(T, T + 10, "Planned");

        FinalState ranInstead =
                new FinalState(true, Map.of(KEY, new FinalState.StoredRun("SUCCEEDED", "a1", 1)), Map.of(), Map.of());

        assertThat(checks(HistoryChecker.check(history, ranInstead))).contains(Check.SKIP_LOST);
    }

    @Test
    void aPlannedSkipRemovedLater_needNotBeHeldInTheEnd() {
        skip(T, T + 10, "Planned");
        add(Op.of("op0.1", 0, Op.Kind.UNSKIP)
                .atMillis(T + 20, T + 30)
                .occurrence(JOB, OCC, null)
                .result("Removed"));

        FinalState nothing = new FinalState(true, Map.of(), Map.of(), Map.of());

        assertThat(HistoryChecker.check(history, nothing).anomalies()).isEmpty();
    }

    private FinalState storedSkip() {
        return new FinalState(
                true, Map.of(KEY, new FinalState.StoredRun("SKIPPED", null, 0, true)), Map.of(), Map.of());
    }

    private void skip(long t0, long t1, String result) {
        add(Op.of("op0.1", 0, Op.Kind.SKIP_PLAN)
                .atMillis(t0, t1)
                .occurrence(JOB, OCC, null)
                .status("op0.1")
                .result(result));
    }

    private void claim(String proc, long t0, long t1, String result, String token) {
        Op.Builder op = Op.of(proc, 0, Op.Kind.CLAIM)
                .atMillis(t0, t1)
                .occurrence(JOB, OCC, JOB)
                .result(result);
        if (token != null) {
            op.lease(1, token, t1 + 2500).attempt(1);
        }
        add(op);
    }

    private void add(Op.Builder op) {
        history.add(op.build());
    }

    private static List<Check> checks(HistoryChecker.Result result) {
        return result.anomalies().stream().map(Anomaly::check).toList();
    }
}
