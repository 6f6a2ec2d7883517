package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.dynamodb.LedgerTable;
import org.junit.jupiter.api.Test;

class LedgerTableCheckTest {

    @Test
    void ttlPitrAndProtection_pass() {
        assertThat(new LedgerTableCheck("t", "ENABLED", LedgerTable.TTL_ATTRIBUTE, "ENABLED", true, true)
                        .result()
                        .status())
                .isEqualTo(CheckStatus.PASS);
    }

    @Test
    void devWithoutDeletionProtection_passes() {
        assertThat(new LedgerTableCheck("t", "ENABLED", LedgerTable.TTL_ATTRIBUTE, "ENABLED", false, false)
                        .result()
                        .status())
                .isEqualTo(CheckStatus.PASS);
    }

    @Test
    void prodWithoutDeletionProtectionOrPitr_failsNamingBoth() {
        CheckResult r =
                new LedgerTableCheck("t", "ENABLED", LedgerTable.TTL_ATTRIBUTE, "DISABLED", false, true).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).contains("point-in-time recovery").contains("deletion protection");
    }

    @Test
    void ttlOnAnotherAttribute_fails() {
        CheckResult r = new LedgerTableCheck("t", "ENABLED", "expires", "ENABLED", false, false).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).contains("TTL on " + LedgerTable.TTL_ATTRIBUTE);
    }
}
