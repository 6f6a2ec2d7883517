package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class AlarmsCheckTest {

    @Test
    void okAndInsufficientData_pass() {
        CheckResult r =
                new AlarmsCheck("Punctual-dev", new TreeMap<>(Map.of("x", "OK", "y", "INSUFFICIENT_DATA"))).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
    }

    @Test
    void anAlarmInAlarm_failsNamingIt() {
        CheckResult r = new AlarmsCheck(
                        "Punctual-dev", new TreeMap<>(Map.of("x", "OK", "Punctual-dev-Failures", "ALARM")))
                .result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).isEqualTo("in ALARM: Punctual-dev-Failures");
        assertThat(r.action()).contains("saved query");
    }

    @Test
    void anAlarmTheStackListsButCloudWatchLacks_failsNamingIt() {
        CheckResult r = new AlarmsCheck(
                        "Punctual-dev", new TreeMap<>(Map.of("x", "OK", "Punctual-dev-Missed", AlarmsCheck.NOT_FOUND)))
                .result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).isEqualTo("the stack lists alarms CloudWatch does not have: Punctual-dev-Missed");
        assertThat(r.action()).contains("detect-stack-drift --stack-name Punctual-dev");
    }

    @Test
    void noAlarms_warns() {
        assertThat(new AlarmsCheck("Punctual-dev", Map.of()).result().status()).isEqualTo(CheckStatus.WARN);
    }
}
