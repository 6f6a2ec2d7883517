package dev.punctual.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CatchUpPlannerTest {
    private static final Instant TRIGGER = Instant.parse("2027-06-15T09:00:00Z");
    private static final Schedule EVERY_MINUTE = Schedule.parse("* * * * *", "UTC");
    private static final Schedule DAILY_0900 = Schedule.parse("0 9 * * *", "UTC");

    private static CatchUpPlan.Run run(CatchUpPlan plan) {
        assertThat(plan).isInstanceOf(CatchUpPlan.Run.class);
        return (CatchUpPlan.Run) plan;
    }

    @Test
    void firstRun_withoutCursor_runsOnlyTheTrigger() {
        var plan = run(CatchUpPlanner.plan(
                new CatchUpPolicy(10, Duration.ofDays(1), CatchUpMode.OLDEST_FIRST),
                Optional.empty(),
                TRIGGER,
                DAILY_0900));
        assertThat(plan.runNow()).containsExactly(TRIGGER);
        assertThat(plan.missed()).isEmpty();
    }

    @Test
    void noOutage_cursorAtPreviousOccurrence_runsOnlyTheTrigger() {
        var plan = run(CatchUpPlanner.plan(
                new CatchUpPolicy(10, Duration.ofDays(1), CatchUpMode.OLDEST_FIRST),
                Optional.of(TRIGGER.minus(Duration.ofDays(1))),
                TRIGGER,
                DAILY_0900));
        assertThat(plan.runNow()).containsExactly(TRIGGER);
        assertThat(plan.missed()).isEmpty();
    }

    @Test
    void dailyJobDownTenDays_oldestFirstWithThreeDayMaxAge_replaysThreeAndRecordsSixMissed() {
        var plan = run(CatchUpPlanner.plan(
                new CatchUpPolicy(5, Duration.ofDays(3), CatchUpMode.OLDEST_FIRST),
                Optional.of(TRIGGER.minus(Duration.ofDays(10))),
                TRIGGER,
                DAILY_0900));
        assertThat(plan.runNow())
                .containsExactly(
                        TRIGGER.minus(Duration.ofDays(3)),
                        TRIGGER.minus(Duration.ofDays(2)),
                        TRIGGER.minus(Duration.ofDays(1)),
                        TRIGGER);
        assertThat(plan.missed())
                .contains(new MissedRange(TRIGGER.minus(Duration.ofDays(9)), TRIGGER.minus(Duration.ofDays(4)), 6));
    }

    @Test
    void everyMinuteJobDownOneYear_oldestFirst_replaysFiveAndCountsTheRestAsOneRange() {
        Instant cursor = TRIGGER.minus(Duration.ofDays(365));
        var plan = run(CatchUpPlanner.plan(
                new CatchUpPolicy(5, Duration.ofHours(1), CatchUpMode.OLDEST_FIRST),
                Optional.of(cursor),
                TRIGGER,
                EVERY_MINUTE));
        assertThat(plan.runNow()).hasSize(6).first().isEqualTo(TRIGGER.minus(Duration.ofMinutes(5)));
        assertThat(plan.missed())
                .contains(new MissedRange(
                        cursor.plus(Duration.ofMinutes(1)), TRIGGER.minus(Duration.ofMinutes(6)), 365 * 1440 - 1 - 5));
    }

    @Test
    void latestOnly_afterOutage_replaysOnlyTheMostRecentMissedOccurrence() {
        var plan = run(CatchUpPlanner.plan(
                new CatchUpPolicy(5, Duration.ofDays(30), CatchUpMode.LATEST_ONLY),
                Optional.of(TRIGGER.minus(Duration.ofDays(4))),
                TRIGGER,
                DAILY_0900));
        assertThat(plan.runNow()).containsExactly(TRIGGER.minus(Duration.ofDays(1)), TRIGGER);
        assertThat(plan.missed()).map(MissedRange::count).contains(2L);
    }

    @Test
    void modeNone_afterOutage_runsTheTriggerAndRecordsEveryMissedOccurrence() {
        var plan = run(CatchUpPlanner.plan(
                CatchUpPolicy.none(), Optional.of(TRIGGER.minus(Duration.ofDays(4))), TRIGGER, DAILY_0900));
        assertThat(plan.runNow()).containsExactly(TRIGGER);
        assertThat(plan.missed()).map(MissedRange::count).contains(3L);
    }

    @Test
    void triggerAtOrBeforeCursor_lateOrRepeatedDelivery_runsNothing() {
        var policy = new CatchUpPolicy(5, Duration.ofDays(1), CatchUpMode.OLDEST_FIRST);
        assertThat(CatchUpPlanner.plan(policy, Optional.of(TRIGGER), TRIGGER, DAILY_0900))
                .isEqualTo(new CatchUpPlan.AlreadyCovered(TRIGGER, TRIGGER));
        assertThat(CatchUpPlanner.plan(policy, Optional.of(TRIGGER), TRIGGER.minus(Duration.ofDays(1)), DAILY_0900))
                .isInstanceOf(CatchUpPlan.AlreadyCovered.class);
    }

    @Test
    void replan_afterTwoOfFourRan_runsTheRemainingTwoAndNothingTwice() {
        var policy = new CatchUpPolicy(3, Duration.ofDays(7), CatchUpMode.OLDEST_FIRST);
        var first =
                run(CatchUpPlanner.plan(policy, Optional.of(TRIGGER.minus(Duration.ofDays(6))), TRIGGER, DAILY_0900));
        List<Instant> ran = first.runNow().subList(0, 2);
        var second = run(CatchUpPlanner.plan(policy, Optional.of(ran.get(1)), TRIGGER, DAILY_0900));
        assertThat(second.runNow()).isEqualTo(first.runNow().subList(2, 4)).doesNotContainAnyElementsOf(ran);
        assertThat(second.missed()).isEmpty();
    }
}
