package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DeadLetterQueuesCheckTest {

    @Test
    void emptyQueues_pass() {
        CheckResult r = new DeadLetterQueuesCheck(new TreeMap<>(Map.of("a", 0, "b", 0))).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen()).isEqualTo("2 queue(s), 0 messages");
    }

    @Test
    void aMessageWaiting_failsNamingTheQueueAndHowToReplay() {
        CheckResult r = new DeadLetterQueuesCheck(new TreeMap<>(Map.of("a", 0, "b", 2))).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).contains("b=2").doesNotContain("a=");
        assertThat(r.action()).contains("punctual run JOB --at T");
    }

    @Test
    void noQueueAtAll_fails() {
        assertThat(new DeadLetterQueuesCheck(Map.of()).result().status()).isEqualTo(CheckStatus.FAIL);
    }
}
