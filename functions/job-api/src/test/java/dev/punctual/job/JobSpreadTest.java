package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.time.Schedule;
import dev.punctual.time.ScheduleExpressionException;
import dev.punctual.time.Spread;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A whole job's spread (decision 0035): a stable offset from its id, applied to what is deployed. */
class JobSpreadTest {

    private static JobDefinition.Builder job(String id, String expression, String zone) {
        return JobDefinition.builder(id).schedule(expression, zone).job(s -> c -> JobResult.empty());
    }

    @Test
    void theOffsetIsTheSpreadsHashOfTheJobsId_andTheDeployedCronFiresThatManyMinutesLater() {
        JobDefinition hourly = job("sync-ledger", "0 * * * *", "UTC")
                .spreadOver(Duration.ofMinutes(10))
                .build();

        int wanted = new Spread(Duration.ofMinutes(10)).offsetMinutes("sync-ledger");
        assertThat(hourly.offsetMinutes()).isEqualTo(wanted);
        assertThat(hourly.deployment().expression()).isEqualTo("cron(" + wanted + " * * * ? *)");
        assertThat(hourly.schedule().deployment().expression())
                .as("the schedule itself is unchanged: its occurrences are what runs")
                .isEqualTo("cron(0 * * * ? *)");
    }

    @Test
    void jobsWrittenTheSameWay_fireInDifferentMinutesOfTheWindow() {
        long minutes = IntStream.range(0, 40)
                .mapToObj(i -> job("hourly-" + i, "0 * * * *", "UTC")
                        .spreadOver(Duration.ofMinutes(15))
                        .build())
                .map(j -> j.deployment().expression())
                .distinct()
                .count();

        assertThat(minutes).as("40 jobs over 15 minutes").isGreaterThanOrEqualTo(10);
    }

    @Test
    void aScheduleThatCannotShiftAsFar_isCutToItsLargestExactOffset_andSaysSo() {
        // 55 9 * * *: a minute past :59 would be 10:00, an hour the expression does not have.
        String id = IntStream.range(0, 1_000)
                .mapToObj(i -> "close-" + i)
                .filter(i -> new Spread(Duration.ofMinutes(10)).offsetMinutes(i) > 4)
                .findFirst()
                .orElseThrow();

        JobDefinition close =
                job(id, "55 9 * * *", "UTC").spreadOver(Duration.ofMinutes(10)).build();

        assertThat(close.offsetMinutes()).isEqualTo(4);
        assertThat(close.deployment().expression()).isEqualTo("cron(59 9 * * ? *)");
        assertThat(close.spread().describe()).contains("+4 min of ").contains(" wanted");
    }

    @Test
    void aJobWithoutSpread_isDeployedAtItsOccurrences() {
        JobDefinition plain = job("plain", "0 9 * * *", "Europe/Paris").build();

        assertThat(plain.spread()).isNull();
        assertThat(plain.offsetMinutes()).isZero();
        assertThat(plain.deployment()).isEqualTo(plain.schedule().deployment());
    }

    @Test
    void aWindowOutsideTwoToSixtyWholeMinutes_isRefusedNamingSpreadOver() {
        assertThatThrownBy(() -> job("a", "0 * * * *", "UTC").spreadOver(Duration.ofMinutes(61)))
                .isInstanceOf(ScheduleExpressionException.class)
                .hasMessageContaining("spreadOver");
        assertThatThrownBy(() -> job("a", "0 * * * *", "UTC").spreadOver(Duration.ofSeconds(90)))
                .isInstanceOf(ScheduleExpressionException.class)
                .hasMessageContaining("spreadOver");
    }

    @Test
    void aWindowLongerThanTheStartDeadline_isRefused_forItWouldSkipItsOwnFirings() {
        assertThatThrownBy(() -> job("market-open", "30 9 * * 1-5", "America/New_York")
                        .startDeadline(Duration.ofMinutes(5))
                        .spreadOver(Duration.ofMinutes(10))
                        .build())
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("job market-open: spreadOver '10 minutes' is not accepted")
                .hasMessageContaining("startDeadline PT5M");

        JobDefinition fits = job("market-open", "30 9 * * 1-5", "America/New_York")
                .startDeadline(Duration.ofMinutes(10))
                .spreadOver(Duration.ofMinutes(10))
                .build();
        assertThat(fits.offsetMinutes()).isLessThan(10);
    }

    @Test
    void aPerEntityJob_isRefusedNamingEntityJobSpreadOver() {
        assertThatThrownBy(() -> job("tenant-report", "0 9 * * *", "UTC")
                        .perEntity(EntityJob.parameters())
                        .spreadOver(Duration.ofMinutes(10))
                        .build())
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("job tenant-report: spreadOver")
                .hasMessageContaining("EntityJob.spreadOver");
    }

    @Test
    void aSpreadNotDerivedFromTheJobsId_isRefused() {
        JobDefinition built = job("sync-ledger", "0 * * * *", "UTC")
                .spreadOver(Duration.ofMinutes(10))
                .build();
        Spread window = new Spread(Duration.ofMinutes(10));
        int other = (built.offsetMinutes() + 1) % 10;

        assertThatThrownBy(() -> new JobDefinition(
                        built.id(),
                        Schedule.parse("0 * * * *", "UTC"),
                        null,
                        built.catchUp(),
                        3,
                        built.retention(),
                        built.pool(),
                        false,
                        false,
                        false,
                        false,
                        null,
                        "",
                        built.factory(),
                        null,
                        null,
                        null,
                        new JobSpread(window, other, other)))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("job sync-ledger: spread")
                .hasMessageContaining("derived from the job's id");
    }
}
