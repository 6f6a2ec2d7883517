package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.stage.StageFlags;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionFlagsCheckTest {

    private static final StageFlags DEV = StageFlags.defaultsFor("dev");

    @Test
    void everyFunctionCarriesTheStagesFlags_passes() {
        Map<String, String> env = new HashMap<>(DEV.toEnvironment());
        env.put("PUNCTUAL_POOL", "default");

        CheckResult r = new FunctionFlagsCheck(DEV, Map.of("f1", env, "f2", DEV.toEnvironment())).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen()).contains("2 function(s)");
    }

    @Test
    void externalDeliveryOnInDev_failsNamingFunctionVariableAndConfigValue() {
        Map<String, String> env = new HashMap<>(DEV.toEnvironment());
        env.put(StageFlags.EXTERNAL_DELIVERY_ENABLED, "true");

        CheckResult r = new FunctionFlagsCheck(DEV, Map.of("f1", env)).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).contains("f1 PUNCTUAL_EXTERNAL_DELIVERY_ENABLED=true (stage config: false)");
        assertThat(r.action()).contains("cdk deploy -c stage=dev");
    }

    @Test
    void missingFlag_isDriftToo() {
        Map<String, String> env = new HashMap<>(DEV.toEnvironment());
        env.remove(StageFlags.DESTRUCTIVE_ENABLED);

        CheckResult r = new FunctionFlagsCheck(DEV, Map.of("f1", env)).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).contains("PUNCTUAL_DESTRUCTIVE_ENABLED=null");
    }

    @Test
    void noFunction_fails() {
        assertThat(new FunctionFlagsCheck(DEV, Map.of()).result().status()).isEqualTo(CheckStatus.FAIL);
    }

    @Test
    void onlyTheSchedulesSwitchDiffers_actionMentionsVerifyingWithSchedulesOff() {
        Map<String, String> env = new HashMap<>(DEV.toEnvironment());
        env.put(StageFlags.SCHEDULES_ENABLED, "false");

        CheckResult r = new FunctionFlagsCheck(DEV, Map.of("f1", env)).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).contains("--schedules on|off");
    }

    @Test
    void aSafetyFlagDiffers_actionDoesNotSuggestTheSchedulesOption() {
        Map<String, String> env = new HashMap<>(DEV.toEnvironment());
        env.put(StageFlags.SCHEDULES_ENABLED, "false");
        env.put(StageFlags.DESTRUCTIVE_ENABLED, "true");

        assertThat(new FunctionFlagsCheck(DEV, Map.of("f1", env)).result().action())
                .doesNotContain("--schedules");
    }
}
