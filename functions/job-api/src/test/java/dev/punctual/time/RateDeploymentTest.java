package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Schedule.deployment() for rate(): a UTC cron with exactly the rate's occurrences, or a refusal. */
class RateDeploymentTest {

    /** Two days across New York's fall-back night: wall time repeats an hour, elapsed time does not. */
    private static final Instant FROM = Instant.parse("2027-11-06T12:00:00Z");

    private static final Instant TO = Instant.parse("2027-11-08T12:00:00Z");

    static List<String> rates() {
        List<String> rates = new ArrayList<>();
        for (int n = 1; n <= 200; n++) {
            rates.add(n == 1 ? "rate(1 minute)" : "rate(" + n + " minutes)");
        }
        for (int n = 1; n <= 49; n++) {
            rates.add(n == 1 ? "rate(1 hour)" : "rate(" + n + " hours)");
        }
        rates.add("rate(1 day)");
        rates.add("rate(2 days)");
        rates.add("rate(7 days)");
        return rates;
    }

    @ParameterizedTest
    @MethodSource("rates")
    void deployment_ofEveryRate_isAUtcCronWithTheRatesOccurrences_orARefusal(String rate) {
        Schedule schedule = Schedule.parse(rate, "America/New_York");
        long minutes = ((RateExpression) schedule.expression()).period().toMinutes();
        boolean expressible = (minutes < 60 && 60 % minutes == 0) || (minutes % 60 == 0 && 1440 % minutes == 0);

        if (!expressible) {
            assertThatThrownBy(schedule::deployment)
                    .isInstanceOf(ScheduleExpressionException.class)
                    .hasMessageContaining("cannot be deployed");
            return;
        }
        Schedule.Deployment deployment = schedule.deployment();
        Schedule deployed =
                Schedule.parse(deployment.expression(), deployment.zone().getId());

        assertThat(deployment.zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(occurrences(deployed)).as(deployment.expression()).isEqualTo(occurrences(schedule));
    }

    @Test
    void deployment_ofCron_isTheExpressionInTheSchedulesOwnZone() {
        Schedule schedule = Schedule.parse("30 2 * * *", "Europe/Berlin");

        assertThat(schedule.deployment())
                .isEqualTo(new Schedule.Deployment("cron(30 2 * * ? *)", ZoneId.of("Europe/Berlin")));
    }

    @Test
    void deployment_ofRates_rendersTheirCronsCanonically() {
        assertThat(cron("rate(1 minute)")).contains("cron(* * * * ? *)");
        assertThat(cron("rate(15 minutes)")).contains("cron(0/15 * * * ? *)");
        assertThat(cron("rate(1 hour)")).contains("cron(0 * * * ? *)");
        assertThat(cron("rate(60 minutes)")).contains("cron(0 * * * ? *)");
        assertThat(cron("rate(6 hours)")).contains("cron(0 0/6 * * ? *)");
        assertThat(cron("rate(1 day)")).contains("cron(0 0 * * ? *)");
        assertThat(cron("rate(7 days)")).isEmpty();
    }

    private static Optional<String> cron(String rate) {
        return ((RateExpression) ScheduleExpression.parse(rate)).asUtcCron();
    }

    private static List<Instant> occurrences(Schedule schedule) {
        OccurrenceCalculator calculator = OccurrenceCalculator.of(schedule);
        List<Instant> found = new ArrayList<>();
        Instant cursor = FROM;
        for (Optional<Instant> next = calculator.next(cursor);
                next.isPresent() && next.get().isBefore(TO);
                next = calculator.next(next.get())) {
            found.add(next.get());
        }
        return found;
    }
}
