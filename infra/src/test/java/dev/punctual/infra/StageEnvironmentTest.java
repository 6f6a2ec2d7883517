package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.stage.StageConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pinned stage deploys only with credentials for its account; prod must be pinned. */
class StageEnvironmentTest {

    @Test
    void prod_withoutAPinnedAccount_failsSynthSayingHowToPinIt() {
        assertThatThrownBy(() -> Synth.fromContext(Map.of("stage", "prod")))
                .isInstanceOf(StageConfigException.class)
                .hasMessageStartingWith("account: '' is not accepted; expected stage prod must be pinned")
                .hasMessageContaining("-c account=123456789012 -c region=eu-central-1")
                .hasMessageContaining("-c allowUnpinnedAccount=true");
    }

    @Test
    void prod_pinnedOnTheCommandLine_isBoundToThatAccountAndRegion() {
        StageStack prod =
                Synth.fromContext(Map.of("stage", "prod", "account", "111111111111", "region", "eu-central-1"));

        assertThat(prod.getAccount()).isEqualTo("111111111111");
        assertThat(prod.getRegion()).isEqualTo("eu-central-1");
        assertThat(prod.config().environment()).isEqualTo(StageEnvironment.of("111111111111", "eu-central-1"));
    }

    @Test
    void prod_explicitlyAllowedUnpinned_synthesises() {
        StageStack prod = Synth.fromContext(Map.of("stage", "prod", "allowUnpinnedAccount", "true"));

        assertThat(prod.config().environment().accountPinned()).isFalse();
    }

    @Test
    void dev_unpinned_synthesisesWithoutAnAccount() {
        assertThat(Synth.fromContext(Map.of("stage", "dev")).config().environment())
                .isEqualTo(StageEnvironment.UNPINNED);
    }

    @Test
    void account_thatIsNotTwelveDigits_isRefusedNamingTheField() {
        assertThatThrownBy(() -> Synth.fromContext(Map.of("stage", "dev", "account", "12345")))
                .hasMessage(
                        "account: '12345' is not accepted; expected a 12-digit AWS account id such as 123456789012");
    }

    @Test
    void region_thatIsNotARegionName_isRefusedNamingTheField() {
        assertThatThrownBy(() -> Synth.fromContext(Map.of("stage", "dev", "region", "Frankfurt")))
                .hasMessage("region: 'Frankfurt' is not accepted; expected an AWS region name such as eu-central-1");
    }

    @Test
    void region_ofTheEuropeanSovereignCloud_isAccepted() {
        assertThat(StageEnvironment.of(null, "eusc-de-east-1").region()).contains("eusc-de-east-1");
    }

    @Test
    void pinnedInTheStageConfig_commandLineRegionOverridesOnlyTheRegion() {
        StageConfig pinned = Stages.named("dev").pinnedTo("222222222222", "us-east-1");

        assertThat(pinned.pinnedTo(null, "eu-west-1").environment())
                .isEqualTo(StageEnvironment.of("222222222222", "eu-west-1"));
    }
}
