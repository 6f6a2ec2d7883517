package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DryRunCountsCheckTest {

    @Test
    void withoutAJobPreview_warnsNotAvailableWithTheNumberOfJobsNotCounted() {
        CheckResult r = new DryRunCountsCheck(2).result();

        assertThat(r.status()).isEqualTo(CheckStatus.WARN);
        assertThat(r.seen()).startsWith("not available").contains("2 delivering or destructive job(s)");
    }
}
