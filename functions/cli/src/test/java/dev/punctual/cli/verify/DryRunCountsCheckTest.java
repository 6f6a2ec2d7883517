package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobPreview;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DryRunCountsCheckTest {

    private static final Instant AT = Instant.parse("2026-11-29T02:00:00Z");

    @Test
    void everyJobTells_passesWithTheCountsOnly() {
        Map<String, DryRunCountsCheck.Preview> previews = new LinkedHashMap<>();
        previews.put("purge-inactive-members", DryRunCountsCheck.Preview.of(AT, JobPreview.deletions(3)));
        previews.put("send-reminders", DryRunCountsCheck.Preview.of(AT, JobPreview.deliveries(1)));

        CheckResult r = new DryRunCountsCheck(previews).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen())
                .isEqualTo(
                        "purge-inactive-members at 2026-11-29T02:00:00Z: 0 change(s), 0 delivery(ies), 3 deletion(s);"
                                + " send-reminders at 2026-11-29T02:00:00Z: 0 change(s), 1 delivery(ies), 0 deletion(s)");
    }

    @Test
    void aJobThatCannotTell_warnsNamingIt() {
        CheckResult r =
                new DryRunCountsCheck(Map.of("send-reminders", DryRunCountsCheck.Preview.error("no preview"))).result();

        assertThat(r.status()).isEqualTo(CheckStatus.WARN);
        assertThat(r.seen()).contains("send-reminders: not available (no preview)");
        assertThat(r.action()).contains("send-reminders");
    }

    @Test
    void noDeliveringOrDestructiveJob_passes() {
        assertThat(new DryRunCountsCheck(Map.of()).result().status()).isEqualTo(CheckStatus.PASS);
    }
}
