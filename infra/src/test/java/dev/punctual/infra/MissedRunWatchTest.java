package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** How each cadence becomes an alarm within CloudWatch's evaluation limits; no synthesis. */
class MissedRunWatchTest {

    private static MissedRunWatch watch(String expression, String zone) {
        JobDefinition job = JobDefinition.builder("probe")
                .schedule(expression, zone)
                .job(s -> ctx -> JobResult.empty())
                .build();
        return MissedRunWatch.forJob(job, Cadence.of(job.schedule(), Synth.CADENCE_FROM), RetrySettings.DEFAULT);
    }

    @ParameterizedTest
    @CsvSource({
        // expression, zone, period seconds, periods: gap + 1 h event age + 5 min timeout + 15 min lag, rounded up
        "*/15 * * * *, Asia/Seoul, 300, 28",
        "0 18 * * *, Asia/Seoul, 3600, 26",
        "0 9 * * *, America/New_York, 3600, 27",
        "cron(0 6 ? * MON-FRI *), Europe/Berlin, 3600, 75",
    })
    void cadenceThatFitsTheEvaluationRange_isWatchedForSilence_overItsGapPlusSlack(
            String expression, String zone, int periodSeconds, int periods) {
        MissedRunWatch watch = watch(expression, zone);

        assertThat(watch.kind()).isEqualTo(MissedRunWatch.Kind.NO_OUTCOME);
        assertThat(watch.period()).isEqualTo(Duration.ofSeconds(periodSeconds));
        assertThat(watch.evaluationPeriods()).isEqualTo(periods);
        assertThat(watch.window()).isEqualTo(Duration.ofSeconds((long) periodSeconds * periods));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"*/15 * * * *", "0 * * * *", "0 9 * * *", "cron(0 6 ? * MON-FRI *)", "cron(0 0 ? * MON,THU *)"})
    void everySilenceWatch_staysWithinCloudWatchsEvaluationRange(String expression) {
        MissedRunWatch watch = watch(expression, "Europe/Berlin");
        Duration range = watch.period().multipliedBy(watch.evaluationPeriods());

        assertThat(range).isLessThanOrEqualTo(MissedRunWatch.MAX_RANGE);
        if (watch.period().compareTo(Duration.ofHours(1)) < 0) {
            assertThat(range).isLessThanOrEqualTo(MissedRunWatch.MAX_RANGE_SHORT_PERIOD);
        }
        assertThat(watch.period().toSeconds() % 60).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cron(0 3 ? * SUN *)", "cron(0 6 1 * ? *)", "cron(0 0 1 1 ? *)", "at(2027-01-15T10:00:00)"})
    void cadenceLongerThanSevenDaysWithSlack_orOneTime_fallsBackToTheRecordedMissedMetric(String expression) {
        MissedRunWatch watch = watch(expression, "Europe/Berlin");

        assertThat(watch.kind()).isEqualTo(MissedRunWatch.Kind.MISSED_RECORDED);
        assertThat(watch.evaluationPeriods()).isEqualTo(1);
    }
}
