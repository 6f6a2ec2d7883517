package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StackStatusCheckTest {

    @ParameterizedTest
    @ValueSource(strings = {"CREATE_COMPLETE", "UPDATE_COMPLETE"})
    void completeStack_passes(String status) {
        assertThat(new StackStatusCheck("Punctual-dev", status).result().status())
                .isEqualTo(CheckStatus.PASS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"UPDATE_IN_PROGRESS", "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "CREATE_IN_PROGRESS"})
    void deployRunning_failsSayingWait(String status) {
        CheckResult r = new StackStatusCheck("Punctual-dev", status).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).contains("wait");
    }

    @Test
    void rolledBackUpdate_failsPointingAtTheStackEvents() {
        CheckResult r = new StackStatusCheck("Punctual-dev", "UPDATE_ROLLBACK_COMPLETE").result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).contains("describe-stack-events");
    }
}
