package dev.punctual.jepsen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.jepsen.HistoryChecker.Anomaly;
import dev.punctual.jepsen.HistoryChecker.Check;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checker's pause checks on hand-made histories: the legal races (a claim before the pause, a claim
 * after the resume, a claim after an {@code until} lapsed on the claimant's clock, a caught-up span) pass,
 * and each broken one is reported, so the suite's pause checks cannot pass by checking nothing.
 */
class PauseChecksTest {

    private static final long T = 1_800_000_000_000L;
    private static final long OCC = T - 600_000;

    private final List<Op> history = new ArrayList<>();
    private long fence;

    @Test
    void aClaimBeforeThePause_andAfterItsResume_isLegal() {
        claim("w1.1", "solo", OCC, T, T + 10, "Claimed");
        pause("solo", T + 20, T + 30, null, RecordingLedger.CATCH_UP);
        resume("solo", T + 100, T + 110, "CATCH_UP", null);
        claim("w1.1", "solo", OCC + 60_000, T + 120, T + 130, "Claimed");

        HistoryChecker.Result result = check();

        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures()).containsEntry("pauses.set", 1L).containsEntry("resumes.catchUp", 1L);
    }

    @Test
    void aClaimGrantedWhileThePauseHeld_isReported() {
        pause("solo", T, T + 10, null, RecordingLedger.CATCH_UP);
        claim("w1.1", "solo", OCC, T + 20, T + 30, "Claimed");
        resume("solo", T + 100, T + 110, "CATCH_UP", null);

        assertThat(checks(check())).containsExactly(Check.PAUSE_IGNORED);
    }

    @Test
    void aPausedGroup_holdsEveryMember() {
        pause("pair", T, T + 10, null, RecordingLedger.CATCH_UP);
        claim("w1.1", "beta", OCC, T + 20, T + 30, "Claimed");

        assertThat(checks(check())).containsExactly(Check.PAUSE_IGNORED);
    }

    @Test
    void aClaimRacingThePause_bothReturningTogether_isLegal() {
        claim("w1.1", "solo", OCC, T, T + 20, "Claimed");
        pause("solo", T + 5, T + 25, null, RecordingLedger.CATCH_UP);

        assertThat(check().anomalies()).isEmpty();
    }

    @Test
    void aClaimOverlappingTheResume_mayHaveWrittenAfterIt_soItIsLegal() {
        // As the suite's first run met it: a shared group's member paused, its claim invoked during the pause
        // and returned after the resume was invoked (the slot claim, its second write, may come after it).
        pause("beta", T, T + 10, null, RecordingLedger.SKIP);
        claim("w4.1", "beta", OCC, T + 1100, T + 1530, "Claimed");
        resume("beta", T + 1330, T + 1360, "CATCH_UP", null);

        assertThat(check().anomalies()).isEmpty();
    }

    @Test
    void aClaimAfterAResumeWhoseCallFailed_isLegal() {
        pause("solo", T, T + 10, null, RecordingLedger.CATCH_UP);
        resume("solo", T + 20, T + 30, "CATCH_UP", Op.ERROR);
        claim("w1.1", "solo", OCC, T + 40, T + 50, "Claimed");

        assertThat(check().anomalies()).isEmpty();
    }

    @Test
    void aClaimSentAfterTheUntilOnTheClaimantsClock_isLegal_butBeforeItIsReported() {
        pause("solo", T, T + 10, T + 1000, RecordingLedger.CATCH_UP);
        claim("w1.1", "solo", OCC, T + 1000, T + 1010, "Claimed");
        assertThat(check().anomalies()).isEmpty();

        history.clear();
        pause("solo", T, T + 10, T + 1000, RecordingLedger.CATCH_UP);
        claim("w2.1", "solo", OCC, T + 500, T + 510, "Claimed");
        assertThat(checks(check())).containsExactly(Check.PAUSE_IGNORED);
    }

    @Test
    void anOccurrenceInsideASpanKeptRefused_grantedAfterTheResume_isReported() {
        pause("solo", T, T + 10, null, RecordingLedger.CATCH_UP);
        resume("solo", T + 100, T + 110, "SKIP_PAUSED", null);
        // outside the span [T, T + 100): legal; inside it: reported
        claim("w1.1", "solo", T - 60_000, T + 200, T + 210, "Claimed");
        assertThat(check().anomalies()).isEmpty();

        claim("w2.1", "solo", T + 60, T + 300, T + 310, "Claimed");
        assertThat(checks(check())).containsExactly(Check.PAUSE_IGNORED);
    }

    @Test
    void aSpanKeptRefused_isReplacedByTheNextPause() {
        pause("solo", T, T + 10, null, RecordingLedger.CATCH_UP);
        resume("solo", T + 100, T + 110, "SKIP_PAUSED", null);
        pause("solo", T + 200, T + 210, null, RecordingLedger.CATCH_UP);
        resume("solo", T + 300, T + 310, "CATCH_UP", null);
        claim("w1.1", "solo", T + 60, T + 400, T + 410, "Claimed");

        assertThat(check().anomalies()).isEmpty();
    }

    @Test
    void aLapsedSkipSpan_staysRefused() {
        pause("solo", T, T + 10, T + 100, RecordingLedger.SKIP);
        claim("w1.1", "solo", T + 50, T + 500, T + 510, "Claimed");

        assertThat(checks(check())).containsExactly(Check.PAUSE_IGNORED);
    }

    @Test
    void aRefusalWithNoPauseInvoked_isReported_andAfterAFailedPauseCallIsLegal() {
        refused("w1.1", T + 20, T + 30);
        skipPaused("w1.1", T + 40, T + 50);
        assertThat(checks(check())).containsExactly(Check.PAUSE_UNFOUNDED);

        history.add(0, pauseOp("solo", T, T + 10, null, RecordingLedger.CATCH_UP, Op.ERROR));
        assertThat(check().anomalies()).isEmpty();
    }

    @Test
    void aRefusalNotRecordedSkipPaused_isReported() {
        pause("solo", T, T + 10, null, RecordingLedger.CATCH_UP);
        refused("w1.1", T + 20, T + 30);
        refused("w1.1", T + 40, T + 50);
        skipPaused("w1.1", T + 60, T + 70);

        assertThat(checks(check())).containsExactly(Check.PAUSE_UNRECORDED);
    }

    @Test
    void aBodyRunAfterARefusal_isReported() {
        pause("solo", T, T + 10, null, RecordingLedger.CATCH_UP);
        refused("w1.1", T + 20, T + 30);
        history.add(Op.of("w1.1", 0, Op.Kind.DOMAIN_WRITE)
                .atMillis(T + 40, T + 50)
                .occurrence("solo", OCC, "solo")
                .result(Op.APPLIED)
                .build());
        skipPaused("w1.1", T + 60, T + 70);

        assertThat(checks(check())).contains(Check.PAUSE_RAN);
    }

    private HistoryChecker.Result check() {
        List<Op> sorted = new ArrayList<>(history);
        sorted.sort(java.util.Comparator.comparingLong(Op::t0).thenComparing(Op::proc));
        return HistoryChecker.check(sorted, FinalState.unknown());
    }

    private void pause(String item, long t0, long t1, Long until, String then) {
        history.add(pauseOp(item, t0, t1, until, then, "Set"));
    }

    private static Op pauseOp(String item, long t0, long t1, Long until, String then, String result) {
        Op.Builder op = Op.of("op0.1", 0, Op.Kind.PAUSE)
                .atMillis(t0, t1)
                .group(item)
                .outcome(then)
                .result(result);
        if (until != null) {
            op.until(until);
        }
        if ("Set".equals(result)) {
            op.pauseSpan(t0 + 5, until);
        }
        return op.build();
    }

    private void resume(String item, long t0, long t1, String choice, String result) {
        Op.Builder op = Op.of("op0.1", 0, Op.Kind.RESUME)
                .atMillis(t0, t1)
                .group(item)
                .outcome(choice)
                .result(result == null ? "Resumed" : result);
        if (result == null) {
            op.pauseSpan(T, "SKIP_PAUSED".equals(choice) ? t0 + 5 - 5 : null);
        }
        history.add(op.build());
    }

    private void claim(String proc, String job, long occ, long t0, long t1, String result) {
        history.add(Op.of(proc, 0, Op.Kind.CLAIM)
                .atMillis(t0, t1)
                .occurrence(job, occ, JepsenJobs.group(job))
                .lease(++fence, proc + "-" + t0, t1 + 5)
                .attempt(1)
                .result(result)
                .build());
    }

    private void refused(String proc, long t0, long t1) {
        history.add(Op.of(proc, 0, Op.Kind.CLAIM)
                .atMillis(t0, t1)
                .occurrence("solo", OCC, "solo")
                .result("Paused")
                .build());
    }

    private void skipPaused(String proc, long t0, long t1) {
        history.add(Op.of(proc, 0, Op.Kind.SKIP)
                .atMillis(t0, t1)
                .occurrence("solo", OCC, null)
                .outcome("PAUSED")
                .result("Recorded")
                .build());
    }

    private static List<Check> checks(HistoryChecker.Result result) {
        return result.anomalies().stream().map(Anomaly::check).toList();
    }
}
