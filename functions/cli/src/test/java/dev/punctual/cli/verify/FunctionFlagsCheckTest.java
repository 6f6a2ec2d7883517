package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class FunctionFlagsCheckTest {

    private static final StageFlags DEV = StageFlags.defaultsFor("dev");

    /** A function's environment as the CDK app writes it: the flags and the stage's tolerance. */
    private static Map<String, String> deployed() {
        Map<String, String> env = new HashMap<>(DEV.toEnvironment());
        env.putAll(SkewTolerance.DEFAULT.toEnvironment());
        return env;
    }

    @Test
    void aSkewToleranceOtherThanTheStageConfigs_orNone_isDrift() {
        Map<String, String> edited = deployed();
        edited.put(SkewTolerance.ENV, "30000");
        Map<String, String> beforeTheVariable = new HashMap<>(DEV.toEnvironment());

        CheckResult r = new FunctionFlagsCheck(
                        DEV,
                        new SkewTolerance(Duration.ofSeconds(5)),
                        new TreeMap<>(Map.of("f1", edited, "f2", beforeTheVariable)))
                .result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen())
                .contains("f1 PUNCTUAL_SKEW_TOLERANCE_MS=30000 (stage config: 5000)")
                .contains("f2 PUNCTUAL_SKEW_TOLERANCE_MS=null (stage config: 5000)");
    }

    @Test
    void everyFunctionCarriesTheStagesFlags_passes() {
        Map<String, String> env = deployed();
        env.put("PUNCTUAL_POOL", "default");

        CheckResult r = new FunctionFlagsCheck(DEV, Map.of("f1", env, "f2", deployed())).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen()).contains("2 function(s)");
    }

    @Test
    void externalDeliveryOnInDev_failsNamingFunctionVariableAndConfigValue() {
        Map<String, String> env = deployed();
        env.put(StageFlags.EXTERNAL_DELIVERY_ENABLED, "true");

        CheckResult r = new FunctionFlagsCheck(DEV, Map.of("f1", env)).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).contains("f1 PUNCTUAL_EXTERNAL_DELIVERY_ENABLED=true (stage config: false)");
        assertThat(r.action()).contains("cdk deploy -c stage=dev");
    }

    @Test
    void missingFlag_isDriftToo() {
        Map<String, String> env = deployed();
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
        Map<String, String> env = deployed();
        env.put(StageFlags.SCHEDULES_ENABLED, "false");

        CheckResult r = new FunctionFlagsCheck(DEV, Map.of("f1", env)).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).contains("--schedules on|off");
    }

    @Test
    void aSafetyFlagDiffers_actionDoesNotSuggestTheSchedulesOption() {
        Map<String, String> env = deployed();
        env.put(StageFlags.SCHEDULES_ENABLED, "false");
        env.put(StageFlags.DESTRUCTIVE_ENABLED, "true");

        assertThat(new FunctionFlagsCheck(DEV, Map.of("f1", env)).result().action())
                .doesNotContain("--schedules");
    }
}
