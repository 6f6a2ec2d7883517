package dev.punctual.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Planner properties on seeded random schedules, cursors, triggers and policies. */
class CatchUpPlannerPropertiesTest {
    private static final List<Schedule> SCHEDULES = List.of(
            Schedule.parse("* * * * *", "UTC"),
            Schedule.parse("*/7 * * * *", "Europe/Berlin"),
            Schedule.parse("30 2 * * *", "Europe/Berlin"),
            Schedule.parse("0 * * * *", "Australia/Lord_Howe"),
            Schedule.parse("cron(0 9 ? * 2#1 *)", "America/New_York"),
            Schedule.parse("rate(90 minutes)", "Asia/Kolkata"));

    record Case(Schedule schedule, CatchUpPolicy policy, Instant cursor, Instant trigger, long seed) {
        @Override
        public String toString() {
            return schedule.expression().source() + " " + schedule.zone() + " " + policy + " cursor " + cursor
                    + " trigger " + trigger;
        }
    }

    static Stream<Arguments> cases() {
        SplittableRandom random = new SplittableRandom(3);
        return IntStream.range(0, 300).mapToObj(i -> {
            Schedule schedule = SCHEDULES.get(random.nextInt(SCHEDULES.size()));
            var calculator = OccurrenceCalculator.of(schedule);
            Instant start = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(random.nextLong(0, 400L * 86_400));
            Instant cursor = calculator.next(start).orElseThrow();
            Duration outage = Duration.ofMinutes(random.nextLong(1, random.nextBoolean() ? 600 : 200_000));
            Instant trigger = calculator.next(cursor.plus(outage)).orElseThrow();
            CatchUpMode mode = CatchUpMode.values()[random.nextInt(3)];
            var policy = new CatchUpPolicy(random.nextInt(0, 20), Duration.ofMinutes(random.nextLong(0, 20_000)), mode);
            return Arguments.of(new Case(schedule, policy, cursor, trigger, random.nextLong()));
        });
    }

    private static CatchUpPlan.Run plan(Case c, Instant cursor, Instant trigger) {
        return (CatchUpPlan.Run) CatchUpPlanner.plan(c.policy(), Optional.of(cursor), trigger, c.schedule());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plan_runsAscendingUniqueOccurrencesWithinBoundsEndingWithTheTrigger(Case c) {
        var calculator = OccurrenceCalculator.of(c.schedule());
        var plan = plan(c, c.cursor(), c.trigger());
        assertThat(plan.runNow()).isSorted().doesNotHaveDuplicates().last().isEqualTo(c.trigger());
        assertThat(plan.runNow()).allSatisfy(at -> {
            assertThat(at).isAfter(c.cursor());
            assertThat(calculator.isOccurrence(at)).isTrue();
        });
        assertThat(plan.runNow().size() - 1).isLessThanOrEqualTo(c.policy().replayBudget());
        assertThat(plan.runNow().get(0))
                .isAfterOrEqualTo(c.trigger().minus(c.policy().maxAge()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plan_accountsForEveryOccurrenceAfterTheCursor_runOrMissedNeverBoth(Case c) {
        var calculator = OccurrenceCalculator.of(c.schedule());
        var plan = plan(c, c.cursor(), c.trigger());
        long missed = plan.missed().map(MissedRange::count).orElse(0L);
        assertThat(missed + plan.runNow().size()).isEqualTo(calculator.count(c.cursor(), c.trigger()) + 1);
        plan.missed().ifPresent(range -> {
            assertThat(range.first()).isEqualTo(calculator.next(c.cursor()).orElseThrow());
            assertThat(range.last()).isBefore(plan.runNow().get(0));
            assertThat(calculator.next(range.last())).contains(plan.runNow().get(0));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void replan_afterPartialCompletion_neverRepeatsAndNeverDropsAnOccurrence(Case c) {
        var calculator = OccurrenceCalculator.of(c.schedule());
        var first = plan(c, c.cursor(), c.trigger());
        int completed = new SplittableRandom(c.seed()).nextInt(1, first.runNow().size() + 1);
        Instant cursor = first.runNow().get(completed - 1);
        Instant laterTrigger = calculator.next(c.trigger()).orElseThrow();
        for (Instant trigger : List.of(c.trigger(), laterTrigger)) {
            if (!trigger.isAfter(cursor)) {
                assertThat(CatchUpPlanner.plan(c.policy(), Optional.of(cursor), trigger, c.schedule()))
                        .isInstanceOf(CatchUpPlan.AlreadyCovered.class);
                continue;
            }
            var again = plan(c, cursor, trigger);
            assertThat(again.runNow())
                    .doesNotContainAnyElementsOf(first.runNow().subList(0, completed));
            long missed = again.missed().map(MissedRange::count).orElse(0L);
            assertThat(missed + again.runNow().size()).isEqualTo(calculator.count(cursor, trigger) + 1);
        }
        var sameTrigger = CatchUpPlanner.plan(c.policy(), Optional.of(cursor), c.trigger(), c.schedule());
        if (sameTrigger instanceof CatchUpPlan.Run run) {
            assertThat(run.runNow())
                    .isEqualTo(first.runNow().subList(completed, first.runNow().size()));
            assertThat(run.missed()).isEmpty();
        }
    }
}
