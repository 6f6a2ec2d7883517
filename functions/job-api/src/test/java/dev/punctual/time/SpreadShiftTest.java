package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spreading (decision 0030): a schedule deployed with an offset fires exactly at each nominal
 * occurrence plus the offset, across daylight-saving changes, and the firing minus the offset is the
 * nominal occurrence again; an offset that cannot shift exactly is lowered, never deployed.
 */
class SpreadShiftTest {

    private static final List<String> ZONES = List.of(
            "UTC",
            "Europe/Berlin",
            "America/New_York",
            "Australia/Lord_Howe",
            "America/Santiago",
            "Europe/Dublin",
            "Asia/Tokyo");

    private static final List<String> EXPRESSIONS = List.of(
            "0 9 * * *",
            "30 2 * * *",
            "50 1 * * *",
            "20 2 * * *",
            "*/15 * * * *",
            "* * * * *",
            "0 0 * * *",
            "45 23 * * 5",
            "0 1,2,3 * * 1-5",
            "cron(0 9 ? * 2#1 *)",
            "cron(40 23 L * ? *)",
            "cron(5 2 ? * 1L *)",
            "rate(1 hour)",
            "rate(15 minutes)",
            "rate(1 day)",
            "at(2027-03-28T01:55:00)",
            "at(2027-10-31T02:30:00)",
            "at(2027-12-31T23:50:00)");

    private static final int[] WANTED = {1, 5, 7, 10, 14, 29, 45, 59};

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(30);
        List<String> expressions = new ArrayList<>(EXPRESSIONS);
        for (int i = 0; i < 24; i++) {
            expressions.add(RandomExpressions.unix(random));
        }
        for (String zone : ZONES) {
            for (String expression : expressions) {
                cases.add(Arguments.of(expression, zone, WANTED[random.nextInt(WANTED.length)]));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} in {1}, wanted {2}")
    @MethodSource("cases")
    void everyDeployedFiring_isANominalOccurrencePlusTheOffset_acrossDaylightSavingChanges(
            String expression, String zone, int wanted) {
        // An at() in the zone's gap is refused before any shift (Dublin skips 01:00-01:59 that night).
        assumeTrue(!expression.startsWith("at(") || validAt(expression, zone));
        Schedule nominal = Schedule.parse(expression, zone);
        int offset = nominal.largestExactOffset(wanted);
        Schedule.Deployment deployment = nominal.deployment(offset);
        Schedule deployed =
                Schedule.parse(deployment.expression(), deployment.zone().getId());
        OccurrenceCalculator nominalCalculator = OccurrenceCalculator.of(nominal);
        OccurrenceCalculator deployedCalculator = OccurrenceCalculator.of(deployed);
        Duration shift = Duration.ofMinutes(offset);

        assertThat(offset).isBetween(0, wanted);
        for (Instant[] window : windows(ZoneId.of(zone))) {
            List<Instant> occurrences = nominalCalculator.between(window[0], window[1], 100_000);
            List<Instant> firings = deployedCalculator.between(window[0].plus(shift), window[1].plus(shift), 100_000);

            assertThat(firings)
                    .as(
                            "%s fires at each occurrence of %s plus %d minutes, %s to %s",
                            deployment.expression(), expression, offset, window[0], window[1])
                    .isEqualTo(occurrences.stream().map(t -> t.plus(shift)).toList());
            // The runtime's way back: the firing minus the offset is an occurrence of the nominal schedule.
            assertThat(firings)
                    .allSatisfy(fired -> assertThat(nominalCalculator.isOccurrence(fired.minus(shift)))
                            .isTrue());
        }
    }

    private static boolean validAt(String expression, String zone) {
        try {
            Schedule.parse(expression, zone);
            return true;
        } catch (ScheduleExpressionException inAGap) {
            return false;
        }
    }

    /** A day either side of each transition of 2027 and 2028, and two quiet days, in the zone. */
    private static List<Instant[]> windows(ZoneId zone) {
        List<Instant[]> windows = new ArrayList<>();
        windows.add(new Instant[] {Instant.parse("2027-06-01T00:00:00Z"), Instant.parse("2027-06-03T00:00:00Z")});
        windows.add(new Instant[] {Instant.parse("2027-12-30T00:00:00Z"), Instant.parse("2028-01-02T00:00:00Z")});
        Instant from = Instant.parse("2027-01-01T00:00:00Z");
        ZoneOffsetTransition transition;
        while ((transition = zone.getRules().nextTransition(from)) != null
                && transition.getInstant().isBefore(Instant.parse("2029-01-01T00:00:00Z"))) {
            Instant at = transition.getInstant();
            windows.add(new Instant[] {at.minus(Duration.ofDays(1)), at.plus(Duration.ofDays(1))});
            from = at;
        }
        return windows;
    }

    @Test
    void offsetZero_deploysTheNominalExpression() {
        Schedule schedule = Schedule.parse("0 9 * * 1-5", "Europe/Berlin");

        assertThat(schedule.deployment(0)).isEqualTo(schedule.deployment());
    }

    @Test
    void aCron_isDeployedWithItsMinutesMovedOn_inItsOwnZone() {
        Schedule schedule = Schedule.parse("0 9 * * 1-5", "Europe/Paris");

        assertThat(schedule.deployment(7))
                .isEqualTo(new Schedule.Deployment("cron(7 9 ? * MON-FRI *)", ZoneId.of("Europe/Paris")));
    }

    @Test
    void aRate_isShiftedAsItsUtcCron_andMayCarryIntoTheNextHourWhenEveryHourMatches() {
        assertThat(Schedule.parse("rate(15 minutes)", "Europe/Paris").deployment(20))
                .isEqualTo(new Schedule.Deployment("cron(5/15 * * * ? *)", ZoneId.of("UTC")));
        assertThat(Schedule.parse("rate(1 day)", "Europe/Paris").deployment(59).expression())
                .isEqualTo("cron(59 0 * * ? *)");
    }

    @Test
    void anAt_isShiftedAcrossMidnightAndTheYear() {
        assertThat(Schedule.parse("at(2027-12-31T23:50:00)", "Asia/Tokyo")
                        .deployment(15)
                        .expression())
                .isEqualTo("at(2028-01-01T00:05:00)");
    }

    @Test
    void aMinuteThatWouldCarryIntoAnHourTheExpressionDoesNotHave_lowersTheOffset() {
        Schedule schedule = Schedule.parse("55 9 * * *", "UTC");

        assertThat(schedule.largestExactOffset(10)).isEqualTo(4);
        assertThatThrownBy(() -> schedule.deployment(10))
                .isInstanceOf(ScheduleExpressionException.class)
                .hasMessageStartingWith("offset_minutes: \"10\" cannot shift '55 9 * * *' in UTC exactly")
                .hasMessageEndingWith("accepted: an offset up to 4 for this schedule");
    }

    @Test
    void anOccurrenceJustBeforeASpringForwardGap_lowersTheOffsetToTheMinutesLeftBeforeIt() {
        // 01:50 + 10 = 02:00, which does not exist on Berlin's last Sunday of March: that firing would be lost.
        assertThat(Schedule.parse("50 1 * * *", "Europe/Berlin").largestExactOffset(30))
                .isEqualTo(9);
        assertThat(Schedule.parse("50 1 * * *", "Asia/Tokyo").largestExactOffset(30))
                .isEqualTo(9);
        assertThat(Schedule.parse("50 1 * * *", "Asia/Tokyo").largestExactOffset(9))
                .isEqualTo(9);
    }

    @Test
    void aLocalTimeInAHalfHourGap_mustNotShiftOutOfIt_orTheShiftedScheduleWouldFireWhereNoOccurrenceWas() {
        // Lord Howe skips 02:00-02:29 in October: 02:20 does not run that night, 02:30 does.
        assertThat(Schedule.parse("20 2 * * *", "Australia/Lord_Howe").largestExactOffset(30))
                .isEqualTo(9);
    }

    @Test
    void anOccurrenceInTheRepeatedHourShiftedPastItsEnd_lowersTheOffset() {
        // New York 2027-11-07: 01:00-01:59 happens twice; 01:55 (the earlier) + 10 = 02:05 EST, an hour and ten later.
        assertThat(Schedule.parse("55 1 * * *", "America/New_York").largestExactOffset(4))
                .isEqualTo(4);
        assertThat(Schedule.parse("45 1 * * *", "America/New_York").largestExactOffset(30))
                .isEqualTo(14);
    }

    @Test
    void aShiftIntoTheRepeatedHourFromBeforeIt_lowersTheOffset_soAFiringAtEitherInstantMapsBack() {
        // New York 2027-11-07: 00:50 + 15 = 01:05, a time that happens twice; fired at its later instant
        // (EST), minus 15 would be 01:50 EDT, no occurrence. 00:59 is still before the repeated hour.
        assertThat(Schedule.parse("50 0 * * *", "America/New_York").largestExactOffset(15))
                .isEqualTo(9);
    }

    @Test
    void everyMinuteInADaylightSavingZone_cannotBeShifted_andKeepsOffsetZero() {
        assertThat(Schedule.parse("* * * * *", "Europe/Berlin").largestExactOffset(59))
                .isZero();
        assertThat(Schedule.parse("* * * * *", "UTC").largestExactOffset(59)).isEqualTo(59);
    }

    @Test
    void offsetsOutsideAnHour_areRefused() {
        Schedule schedule = Schedule.parse("0 9 * * *", "UTC");

        assertThatThrownBy(() -> schedule.deployment(60))
                .hasMessageStartingWith("offset_minutes: \"60\" is out of range");
        assertThatThrownBy(() -> schedule.deployment(-1))
                .hasMessageStartingWith("offset_minutes: \"-1\" is out of range");
    }
}
