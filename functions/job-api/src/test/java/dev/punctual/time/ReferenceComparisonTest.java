package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
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
 * Punctual's calculator against independent references, on seeded random expressions and instants,
 * where the semantics coincide: zones without daylight saving (the references and EventBridge then
 * agree on every minute), and L/W/# day rules, which Spring implements after Quartz as EventBridge
 * does.
 */
class ReferenceComparisonTest {
    private static final int CASES = 300;
    private static final List<String> FIXED_ZONES = List.of("UTC", "Asia/Kolkata", "Asia/Tokyo", "Etc/GMT+5");
    private static final CronParser CRON_UTILS =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    static Stream<Arguments> unixCases() {
        SplittableRandom random = new SplittableRandom(20261129);
        return IntStream.range(0, CASES)
                .mapToObj(i -> Arguments.of(
                        RandomExpressions.unix(random),
                        FIXED_ZONES.get(random.nextInt(FIXED_ZONES.size())),
                        RandomExpressions.instant(random, 2000, 2060)));
    }

    /**
     * Spring counts day-of-week 1-7 from Monday, so a step there ({@code *}{@code /2}) picks other days
     * than Unix cron's 0-7 from Sunday; those are the cases where the semantics do not coincide.
     */
    static Stream<Arguments> springUnixCases() {
        return unixCases().filter(arguments -> !((String) arguments.get()[0]).split(" ")[4].contains("/"));
    }

    static Stream<Arguments> specialDayCases() {
        SplittableRandom random = new SplittableRandom(7);
        return IntStream.range(0, CASES)
                .mapToObj(i -> Arguments.of(
                        (Object[]) RandomExpressions.eventBridgeSpecialDays(random),
                        RandomExpressions.instant(random, 2000, 2060)))
                .map(arguments -> {
                    Object[] pair = (Object[]) arguments.get()[0];
                    return Arguments.of(pair[0], pair[1], arguments.get()[1]);
                });
    }

    private static Optional<Instant> punctualNext(String expression, String zone, Instant after) {
        return OccurrenceCalculator.of(Schedule.parse(expression, zone)).next(after);
    }

    @ParameterizedTest(name = "{0} in {1} after {2}")
    @MethodSource("springUnixCases")
    void unixExpression_inZoneWithoutDst_nextOccurrenceEqualsSpring(String expression, String zone, Instant after) {
        ZonedDateTime spring = CronExpression.parse("0 " + expression).next(after.atZone(ZoneId.of(zone)));
        assertThat(punctualNext(expression, zone, after))
                .as("%s in %s after %s", expression, zone, after)
                .isEqualTo(Optional.ofNullable(spring).map(ZonedDateTime::toInstant));
    }

    @ParameterizedTest(name = "{0} in {1} after {2}")
    @MethodSource("unixCases")
    void unixExpression_inZoneWithoutDst_nextOccurrenceEqualsCronUtils(String expression, String zone, Instant after) {
        var cronUtils =
                ExecutionTime.forCron(CRON_UTILS.parse(expression)).nextExecution(after.atZone(ZoneId.of(zone)));
        assertThat(punctualNext(expression, zone, after)).isEqualTo(cronUtils.map(ZonedDateTime::toInstant));
    }

    @ParameterizedTest(name = "{0} (Spring {1}) after {2}")
    @MethodSource("specialDayCases")
    void eventBridgeLastWeekdayAndNthDayRules_inUtc_nextOccurrenceEqualsSpring(
            String expression, String spring, Instant after) {
        ZonedDateTime expected = CronExpression.parse(spring).next(after.atZone(ZoneId.of("UTC")));
        assertThat(punctualNext(expression, "UTC", after))
                .isEqualTo(Optional.ofNullable(expected).map(ZonedDateTime::toInstant));
    }

    @ParameterizedTest(name = "{0} in {1} before {2}")
    @MethodSource("unixCases")
    void previousOccurrence_isAnOccurrenceWithNoneBetweenItAndTheInstant(
            String expression, String zone, Instant before) {
        var calculator = OccurrenceCalculator.of(Schedule.parse(expression, zone));
        Optional<Instant> previous = calculator.previous(before);
        assertThat(previous).isPresent();
        assertThat(previous.get()).isBefore(before);
        assertThat(calculator.isOccurrence(previous.get())).isTrue();
        assertThat(calculator.next(previous.get()))
                .hasValueSatisfying(next -> assertThat(next).isAfterOrEqualTo(before));
    }
}
