package dev.punctual.cli.verify;

import static dev.punctual.fixtures.FixtureCatalog.DELIVERING;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
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
        previews.put(DESTRUCTIVE, DryRunCountsCheck.Preview.of(AT, JobPreview.deletions(3)));
        previews.put(DELIVERING, DryRunCountsCheck.Preview.of(AT, JobPreview.deliveries(1)));

        CheckResult r = new DryRunCountsCheck(previews).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen())
                .isEqualTo(DESTRUCTIVE + " at 2026-11-29T02:00:00Z: 0 change(s), 0 delivery(ies), 3 deletion(s);" + " "
                        + DELIVERING + " at 2026-11-29T02:00:00Z: 0 change(s), 1 delivery(ies), 0 deletion(s)");
    }

    @Test
    void aJobThatCannotTell_warnsNamingIt() {
        CheckResult r =
                new DryRunCountsCheck(Map.of(DELIVERING, DryRunCountsCheck.Preview.error("no preview"))).result();

        assertThat(r.status()).isEqualTo(CheckStatus.WARN);
        assertThat(r.seen()).contains(DELIVERING + ": not available (no preview)");
        assertThat(r.action()).contains(DELIVERING);
    }

    @Test
    void noDeliveringOrDestructiveJob_passes() {
        assertThat(new DryRunCountsCheck(Map.of()).result().status()).isEqualTo(CheckStatus.PASS);
    }
}
