package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.infra.StageEnvironment;
import org.junit.jupiter.api.Test;

class CallerAccountCheckTest {

    private static final StageEnvironment PINNED = StageEnvironment.of("111111111111", "eu-central-1");

    @Test
    void pinnedStage_credentialsOfThatAccountAndRegion_pass() {
        CheckResult r = new CallerAccountCheck("prod", PINNED, "111111111111", "eu-central-1", "111111111111").result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
    }

    @Test
    void pinnedStage_credentialsOfAnotherAccount_failSayingStop() {
        CheckResult r = new CallerAccountCheck("prod", PINNED, "222222222222", "eu-central-1", "222222222222").result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).contains("222222222222").contains("pinned to account 111111111111");
        assertThat(r.action()).startsWith("stop");
    }

    @Test
    void pinnedStage_anotherRegion_failNamingTheRegionToUse() {
        CheckResult r = new CallerAccountCheck("prod", PINNED, "111111111111", "us-east-1", "111111111111").result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).contains("--region eu-central-1");
    }

    @Test
    void unpinnedStage_warnsNamingTheAccount() {
        CheckResult r = new CallerAccountCheck(
                        "dev", StageEnvironment.UNPINNED, "123456789012", "us-east-1", "123456789012")
                .result();

        assertThat(r.status()).isEqualTo(CheckStatus.WARN);
        assertThat(r.seen()).contains("123456789012").contains("not pinned");
    }
}
