package dev.punctual.cli.reading;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.catchup.CatchUpMode;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A catalog the team wrote in a way Punctual refuses is the team's input, said as input (issue 40, 8):
 * exit 2 and one line naming the job and the field, with a suggestion that is Java the team can paste.
 */
class CatalogRefusalTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);

    /** The docs' old shape: three within two days, for a weekly job, can never catch anything up. */
    private static JobCatalog weeklyDigestCatchingUpTwoDays() {
        return JobCatalog.of(JobDefinition.builder("weekly-digest")
                .schedule("cron(30 8 ? * MON *)", "Europe/Paris")
                .catchUp(new CatchUpPolicy(3, Duration.ofDays(2), CatchUpMode.OLDEST_FIRST))
                .job(services -> context -> JobResult.empty())
                .build());
    }

    @Test
    void jobs_onACatalogWithACatchUpThatCouldNeverReplay_exitsTwo_suggestingJava() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                CliContext.withClock(NOW),
                commands -> {
                    Map<String, Supplier<Object>> replaced = new LinkedHashMap<>(commands);
                    replaced.put("jobs", () -> new JobsCommand(NOW, CatalogRefusalTest::weeklyDigestCatchingUpTwoDays));
                    return replaced;
                },
                "jobs");

        assertThat(code).as(err.toString()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString())
                .startsWith(
                        "punctual jobs: job weekly-digest: catchUp 'oldest first, up to 3 within 2d' is not accepted")
                .contains("CatchUpPolicy.oldestFirst(3, Duration.ofHours(508))")
                .doesNotContain("PT508H")
                .doesNotContain("failed:");
        assertThat(out.toString()).isEmpty();
    }
}
