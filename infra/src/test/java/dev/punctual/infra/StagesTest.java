package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageFlags;
import org.junit.jupiter.api.Test;

class StagesTest {

    @Test
    void named_unknownStage_failsListingTheKnownOnes() {
        assertThatThrownBy(() -> Stages.named("staging"))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("stage: 'staging'")
                .hasMessageContaining("[dev, prod]");
    }

    @Test
    void named_noStage_failsSayingHowToPassOne() {
        assertThatThrownBy(() -> Stages.named(null)).hasMessageContaining("-c stage=NAME");
    }

    @Test
    void schedulesContext_withAValueOtherThanOnOrOff_failsBeforeSynthNamingTheField() {
        assertThatThrownBy(() -> PunctualApp.build(
                        Synth.app(java.util.Map.of("stage", "dev", "schedules", "paused")), Synth.code()))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("schedules: 'paused'")
                .hasMessageContaining("on or off");
    }

    @Test
    void withSchedulesEnabled_changesOnlyTheKillSwitch() {
        StageConfig prod = Stages.named("prod");
        StageConfig off = prod.withSchedulesEnabled(false);

        assertThat(off.flags().schedulesEnabled()).isFalse();
        assertThat(off.withSchedulesEnabled(true)).isEqualTo(prod);
    }

    @Test
    void dev_suppressesDeliveryAndRefusesDestructiveJobs_prodAllowsBoth() {
        assertThat(Stages.named("dev").flags().externalDeliveryEnabled()).isFalse();
        assertThat(Stages.named("dev").flags().destructiveEnabled()).isFalse();
        assertThat(Stages.named("prod").flags().externalDeliveryEnabled()).isTrue();
        assertThat(Stages.named("prod").retainData()).isTrue();
    }

    @Test
    void config_withRetentionCloudWatchRefuses_namesTheFieldAndAcceptedValues() {
        assertThatThrownBy(() -> new StageConfig(
                        StageFlags.defaultsFor("dev"),
                        10,
                        new StageConfig.AlarmSettings(1, 5),
                        RetrySettings.DEFAULT,
                        false,
                        "java25"))
                .hasMessageStartingWith("logRetentionDays: '10' is not accepted; expected one of [1, 3, 5, 7, 14");
    }

    @Test
    void config_withUnsupportedRuntime_refusesIt() {
        assertThatThrownBy(() -> new StageConfig(
                        StageFlags.defaultsFor("dev"),
                        14,
                        new StageConfig.AlarmSettings(1, 5),
                        RetrySettings.DEFAULT,
                        false,
                        "java17"))
                .hasMessage("lambdaRuntime: 'java17' is not accepted; expected java21 or java25");
    }

    @Test
    void alarmSettings_withZeroFailures_refusesIt() {
        assertThatThrownBy(() -> new StageConfig.AlarmSettings(0, 5)).hasMessageContaining("alarms.failuresPerPeriod");
    }

    @Test
    void retries_withMoreLambdaRetriesThanLambdaAllows_refusesIt() {
        assertThatThrownBy(() -> new RetrySettings(3, java.time.Duration.ofHours(1), 3, java.time.Duration.ofHours(1)))
                .hasMessage("retries.lambdaRetryAttempts: '3' is not accepted; expected a whole number from 0 to 2");
    }

    @Test
    void retries_withSchedulerEventAgeOverADay_refusesIt() {
        assertThatThrownBy(() -> new RetrySettings(3, java.time.Duration.ofHours(25), 2, java.time.Duration.ofHours(1)))
                .hasMessageStartingWith("retries.schedulerMaxEventAge: 'PT25H' is not accepted");
    }

    @Test
    void catalog_withMoreAttemptsThanOneDeliveryHasTries_failsSynthNamingTheJob() {
        dev.punctual.job.JobCatalog catalog =
                dev.punctual.job.JobCatalog.of(dev.punctual.job.JobDefinition.builder("greedy")
                        .schedule("0 * * * *", "UTC")
                        .maxAttempts(5)
                        .job(services -> context -> dev.punctual.job.JobResult.empty())
                        .build());

        assertThatThrownBy(() -> StageStack.checkAttemptsFitLambdaRetries(Stages.named("dev"), catalog))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("job greedy maxAttempts: '5'")
                .hasMessageContaining("at most 3");
    }
}
