package dev.punctual.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StageFlagsTest {

    @Test
    void defaults_outsideProd_suppressDeliveryAndRefuseDestructive() {
        StageFlags dev = StageFlags.defaultsFor("dev");

        assertThat(dev.schedulesEnabled()).isTrue();
        assertThat(dev.externalDeliveryEnabled()).isFalse();
        assertThat(dev.destructiveEnabled()).isFalse();
    }

    @Test
    void defaults_inProd_allowDeliveryAndDestructive() {
        StageFlags prod = StageFlags.defaultsFor("prod");

        assertThat(prod.externalDeliveryEnabled()).isTrue();
        assertThat(prod.destructiveEnabled()).isTrue();
    }

    @Test
    void environment_roundTrip_givesTheSameFlags() {
        StageFlags flags = new StageFlags("qa", false, true, false, Duration.ofMillis(2500));

        assertThat(StageFlags.fromEnvironment(flags.toEnvironment())).isEqualTo(flags);
    }

    @Test
    void fromEnvironment_withOnlyTheStage_takesThatStagesSafeDefaults() {
        assertThat(StageFlags.fromEnvironment(Map.of(StageFlags.STAGE, "dev")))
                .isEqualTo(StageFlags.defaultsFor("dev"));
    }

    @Test
    void fromEnvironment_withMisspelledBoolean_namesTheVariableAndTheAcceptedValues() {
        Map<String, String> env = new HashMap<>(StageFlags.defaultsFor("dev").toEnvironment());
        env.put(StageFlags.DESTRUCTIVE_ENABLED, "yes");

        assertThatThrownBy(() -> StageFlags.fromEnvironment(env))
                .isInstanceOf(StageConfigException.class)
                .hasMessage("PUNCTUAL_DESTRUCTIVE_ENABLED: 'yes' is not accepted; expected true or false");
    }

    @Test
    void fromEnvironment_withoutStage_failsNamingTheVariable() {
        assertThatThrownBy(() -> StageFlags.fromEnvironment(Map.of()))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("PUNCTUAL_STAGE");
    }

    @Test
    void constructor_withUpperCaseStageName_refusesIt() {
        assertThatThrownBy(() -> StageFlags.defaultsFor("Prod"))
                .isInstanceOfSatisfying(
                        StageConfigException.class, e -> assertThat(e.field()).isEqualTo("stage"));
    }

    @Test
    void constructor_withLockWaitOverFiveMinutes_refusesIt() {
        assertThatThrownBy(() -> new StageFlags("dev", true, false, false, Duration.ofMinutes(6)))
                .hasMessageContaining("lockWait");
    }
}
