package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.scheduling.support.CronExpression;

/**
 * Punctual around real DST transitions against a slow oracle built independently: walk every UTC
 * minute, read its local time in the zone, let Spring say whether the fields match that local time,
 * and keep the minute only when it is the earlier instant of its local time (java.time's default).
 * That is EventBridge Scheduler's rule spelled out the dumb way: a gap's local times never appear,
 * an overlap's appear twice and count once.
 */
class DstOracleTest {
    private static final List<String> ZONES = List.of(
            "Europe/Berlin",
            "America/New_York",
            "Australia/Sydney",
            "Australia/Lord_Howe",
            "America/Santiago",
            "America/Havana",
            "Asia/Beirut",
            "Pacific/Chatham",
            "America/St_Johns",
            "Asia/Tehran",
            "Africa/Cairo",
            "Europe/London");
    private static final Duration HORIZON = Duration.ofDays(2);

    static Stream<Arguments> casesNearTransitions() {
        SplittableRandom random = new SplittableRandom(42);
        return IntStream.range(0, 200).mapToObj(i -> {
            String zone = ZONES.get(random.nextInt(ZONES.size()));
            Instant somewhere = RandomExpressions.instant(random, 1995, 2040);
            var transition = ZoneId.of(zone).getRules().nextTransition(somewhere);
            Instant near = transition == null
                    ? somewhere
                    : transition.getInstant().plusSeconds(random.nextLong(-36 * 3600, 12 * 3600));
            return Arguments.of(denseUnix(random), zone, near);
        });
    }

    /** Expressions that fire at least most days, so a two-day horizon decides most cases. */
    private static String denseUnix(SplittableRandom random) {
        String minute = RandomExpressions.field(random, 0, 59);
        String hour = random.nextBoolean() ? "*" : RandomExpressions.field(random, 0, 23);
        return minute + " " + hour + " * * *";
    }

    private static Optional<Instant> oracleNext(String unix, ZoneId zone, Instant after) {
        CronExpression fields = CronExpression.parse("0 " + unix);
        Instant minute = after.plusSeconds(60 - Math.floorMod(after.getEpochSecond(), 60));
        for (; minute.isBefore(after.plus(HORIZON)); minute = minute.plusSeconds(60)) {
            LocalDateTime local = LocalDateTime.ofInstant(minute, zone);
            boolean matches = local.equals(fields.next(local.minusSeconds(1)));
            if (matches && ZonedDateTime.of(local, zone).toInstant().equals(minute)) {
                return Optional.of(minute);
            }
        }
        return Optional.empty();
    }

    @ParameterizedTest(name = "{0} in {1} after {2}")
    @MethodSource("casesNearTransitions")
    void nextOccurrence_nearDstTransition_equalsTheMinuteByMinuteOracle(String unix, String zone, Instant after) {
        var calculator = OccurrenceCalculator.of(Schedule.parse(unix, zone));
        // Warm the calculator's remembered offset stretch with an earlier search, as a long-lived
        // calculator would have it: sometimes the same stretch, sometimes one across the transition.
        calculator.next(after.minus(Duration.ofHours(Math.floorMod(after.getEpochSecond(), 24 * 40))));
        Optional<Instant> expected = oracleNext(unix, ZoneId.of(zone), after);
        Optional<Instant> actual = calculator.next(after);
        if (expected.isPresent()) {
            assertThat(actual).isEqualTo(expected);
        } else {
            assertThat(actual).hasValueSatisfying(next -> assertThat(next).isAfterOrEqualTo(after.plus(HORIZON)));
        }
    }

    @ParameterizedTest(name = "{0} in {1} from {2}")
    @MethodSource("casesNearTransitions")
    void window_nearDstTransition_equalsRepeatedNextAndCountAndPreviousAgree(String unix, String zone, Instant from) {
        var calculator = OccurrenceCalculator.of(Schedule.parse(unix, zone));
        Instant to = from.plus(HORIZON);
        List<Instant> stepped = new ArrayList<>();
        for (Optional<Instant> next = calculator.next(from.minusSeconds(1));
                next.isPresent() && next.get().isBefore(to);
                next = calculator.next(next.get())) {
            stepped.add(next.get());
        }
        assertThat(calculator.between(from, to, 10_000)).isEqualTo(stepped);
        assertThat(calculator.count(from.minusSeconds(1), to)).isEqualTo(stepped.size());
        if (!stepped.isEmpty()) {
            assertThat(calculator.previous(to)).contains(stepped.get(stepped.size() - 1));
            assertThat(calculator.previous(stepped.get(0)))
                    .hasValueSatisfying(p -> assertThat(p).isBefore(from));
        }
    }
}
