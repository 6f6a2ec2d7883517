package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageFreshness;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobFreshnessTest {

    private static JobDefinition.Builder daily(String id) {
        return JobDefinition.builder(id).schedule("0 9 * * *", "Europe/Paris").job(s -> ctx -> JobResult.empty());
    }

    @Test
    void aDailyJob_mayBeFreshWithinADayAndAnHour_orMore() {
        JobDefinition job = daily("report").freshWithin(Duration.ofHours(25)).build();

        assertThat(job.freshWithin()).isEqualTo(Duration.ofHours(25));
        assertThat(job.freshnessBound(StageFreshness.NONE)).contains(Duration.ofHours(25));
        assertThat(job.freshnessBound(new StageFreshness(3)))
                .as("the job's own bound wins over the stage's default")
                .contains(Duration.ofHours(25));
    }

    @Test
    void aBoundShorterThanOnePeriodAndAnHour_isRefused_namingWhatIsAccepted() {
        assertThatThrownBy(
                        () -> daily("report").freshWithin(Duration.ofHours(24)).build())
                .isInstanceOf(CatalogDefinitionException.class)
                .hasMessageContaining("job report: freshWithin 'PT24H' is not accepted")
                .hasMessageContaining("from Duration.ofHours(25)")
                .hasMessageContaining("to Duration.ofDays(400)");
    }

    @Test
    void aFrequentJob_isHeldToAtLeastTwoHours_theWatchdogsCadenceAndSome() {
        JobDefinition.Builder everyFive =
                JobDefinition.builder("poll").schedule("*/5 * * * *", "UTC").job(s -> ctx -> JobResult.empty());

        assertThatThrownBy(() -> everyFive.freshWithin(Duration.ofMinutes(90)).build())
                .hasMessageContaining("freshWithin 'PT1H30M'")
                .hasMessageContaining("from Duration.ofHours(2)");
        assertThat(everyFive.freshWithin(Duration.ofHours(2)).build().freshWithin())
                .isEqualTo(Duration.ofHours(2));
    }

    @Test
    void aBoundLongerThan400Days_isRefused() {
        assertThatThrownBy(
                        () -> daily("report").freshWithin(Duration.ofDays(401)).build())
                .hasMessageContaining("freshWithin 'PT9624H'");
    }

    @Test
    void aPerEntityJob_takesNoBound_andNoStageDefault() {
        EntityJob entities = EntityJob.parameters();
        JobDefinition.Builder perEntity = daily("tenant-report").perEntity(entities);

        assertThatThrownBy(() -> perEntity.freshWithin(Duration.ofDays(2)).build())
                .hasMessageContaining("no bound on a per-entity job");
        assertThat(daily("tenant-report").perEntity(entities).build().freshnessBound(new StageFreshness(3)))
                .isEmpty();
    }

    @Test
    void withoutABoundOfItsOwn_aJobTakesTheStagesDefault_periodsOfItsScheduleAndAnHour() {
        JobDefinition job = daily("report").build();

        assertThat(job.freshWithin()).isNull();
        assertThat(job.freshnessBound(StageFreshness.NONE)).isEmpty();
        assertThat(job.freshnessBound(new StageFreshness(3))).contains(Duration.ofHours(73));
        assertThat(JobDefinition.builder("poll")
                        .schedule("*/5 * * * *", "UTC")
                        .job(s -> ctx -> JobResult.empty())
                        .build()
                        .freshnessBound(new StageFreshness(3)))
                .as("three five-minute periods and an hour is shorter than the shortest bound")
                .contains(Duration.ofHours(2));
    }

    @Test
    void aJobThatOptsOut_isNeverWatched_whateverTheStagesDefault() {
        JobDefinition job = daily("report").notWatchedForFreshness().build();

        assertThat(job.freshnessBound(new StageFreshness(3))).isEmpty();
    }

    @Test
    void theStagesDefault_isReadFromTheFunctionsEnvironment_andRefusedOutsideZeroToThirty() {
        assertThat(StageFreshness.fromEnvironment(Map.of())).isEqualTo(StageFreshness.NONE);
        assertThat(StageFreshness.fromEnvironment(new StageFreshness(3).toEnvironment()))
                .isEqualTo(new StageFreshness(3));
        assertThatThrownBy(() -> StageFreshness.fromEnvironment(Map.of(StageFreshness.ENV, "three")))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining(StageFreshness.ENV)
                .hasMessageContaining("0 (none) to 30");
        assertThatThrownBy(() -> new StageFreshness(31)).hasMessageContaining("freshWithinPeriods");
    }
}
