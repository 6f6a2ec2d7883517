package dev.punctual.cli.verify;

import static dev.punctual.fixtures.FixtureCatalog.DELIVERING;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobPreview;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading the deployed function's answer to a dry run (events/README.md, "Result"). */
class JobPreviewsTest {

    private static String answer(String occurrence) {
        return "{\"status\":\"OK\",\"stage\":\"dev\",\"kind\":\"run\",\"job\":\"" + DESTRUCTIVE + "\","
                + "\"counts\":{\"pass\":0,\"skip\":1,\"fail\":0},\"occurrences\":[" + occurrence + "],"
                + "\"missed\":null,\"not_run\":0,\"stopped_by\":null,\"error\":null}";
    }

    @Test
    void aDryRunWithAPreview_givesItsOccurrenceAndCounts() {
        DryRunCountsCheck.Preview p = JobPreviews.parse(
                answer("{\"job\":\"" + DESTRUCTIVE + "\",\"occurrence\":\"2026-11-29T02:00:00Z\","
                        + "\"outcome\":\"SKIP\",\"reason\":\"DRY_RUN\",\"detail\":\"would run: 0 changes, 0 deliveries,"
                        + " 2 deletions\",\"preview\":{\"changes\":0,\"deliveries\":0,\"deletions\":2}}"),
                false);

        assertThat(p.occurrence()).contains(Instant.parse("2026-11-29T02:00:00Z"));
        assertThat(p.counts()).contains(JobPreview.deletions(2));
    }

    @Test
    void aDryRunWithoutAPreview_isNotAvailable_sayingWhatTheFunctionSaid() {
        DryRunCountsCheck.Preview p = JobPreviews.parse(
                answer("{\"occurrence\":\"2026-11-29T02:00:00Z\",\"outcome\":\"SKIP\",\"reason\":\"DRY_RUN\","
                        + "\"detail\":\"would run; its preview failed: AccessDeniedException: not authorized\"}"),
                false);

        assertThat(p.counts()).isEmpty();
        assertThat(p.problem()).isEqualTo("would run; its preview failed: AccessDeniedException: not authorized");
    }

    @Test
    void aRefusedPayload_isNotAvailable_namingTheCode() {
        DryRunCountsCheck.Preview p = JobPreviews.parse(
                "{\"status\":\"INVALID\",\"occurrences\":[],\"error\":{\"code\":\"UNKNOWN_JOB\",\"field\":\"job\","
                        + "\"message\":\"no job " + DELIVERING + "\"}}",
                false);

        assertThat(p.counts()).isEmpty();
        assertThat(p.problem()).contains("refused").contains("UNKNOWN_JOB: no job " + DELIVERING);
    }

    @Test
    void aFunctionError_isNotAvailable_namingTheError() {
        DryRunCountsCheck.Preview p =
                JobPreviews.parse("{\"errorMessage\":\"Task timed out\",\"errorType\":\"Sandbox.Timedout\"}", true);

        assertThat(p.counts()).isEmpty();
        assertThat(p.problem()).contains("Sandbox.Timedout: Task timed out");
    }

    @Test
    void anAnswerThatIsNotADryRun_isNotAvailable() {
        DryRunCountsCheck.Preview p = JobPreviews.parse(
                answer("{\"occurrence\":\"2026-11-29T02:00:00Z\",\"outcome\":\"PASS\",\"reason\":\"OK\"}"), false);

        assertThat(p.counts()).isEqualTo(Optional.empty());
        assertThat(p.problem()).startsWith("not a dry run: PASS OK");
    }
}
