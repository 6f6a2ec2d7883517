package dev.punctual.cli.reading;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.time.Exclusions;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code plan --job} of a spread job (issue 22, 5; decision 0035): the deployed form and each firing. */
class PlanReportSpreadTest {

    private static final Instant FROM = Instant.parse("2026-12-01T00:00:00Z");

    private static final JobDefinition JOB = JobDefinition.builder("hourly-sync")
            .schedule("0 * * * *", "Asia/Seoul")
            .spreadOver(Duration.ofMinutes(20))
            .job(s -> c -> JobResult.empty())
            .build();

    private static PlanReport report() {
        return new PlanReport(
                JOB.schedule(),
                FROM,
                OccurrenceCalculator.of(JOB.schedule()).timeline(FROM, FROM.plus(Duration.ofHours(3)), 10),
                Optional.empty(),
                Optional.of(new PlanReport.JobRules(Exclusions.NONE, CatchUpPolicy.none(), Optional.of(JOB.spread()))));
    }

    @Test
    void theDeployedExpressionIsShifted_andEachOccurrenceSaysWhenItFires() throws Exception {
        JsonNode json = new ObjectMapper().readTree(report().json());
        int k = JOB.offsetMinutes();

        assertThat(k).isPositive();
        assertThat(json.get("deployed").asText()).isEqualTo("cron(" + k + " * * * ? *)");
        assertThat(json.get("offset_minutes").asInt()).isEqualTo(k);
        assertThat(json.get("spread_over").asText()).isEqualTo("PT20M");
        assertThat(json.at("/occurrences/0/utc").asText()).isEqualTo("2026-12-01T00:00:00Z");
        assertThat(json.at("/occurrences/0/fires").asText()).isEqualTo(String.format("2026-12-01T00:%02d:00Z", k));
    }

    @Test
    void theText_namesTheSpreadAndListsTheOccurrencesThatRun() {
        String text = report().text();

        assertThat(text)
                .contains("expression  cron(" + JOB.offsetMinutes() + " * * * ? *)")
                .contains("spread      +" + JOB.offsetMinutes() + " min (spreadOver 20 minutes): fires "
                        + JOB.offsetMinutes() + " min after each occurrence listed")
                .contains("2026-12-01T00:00:00Z   2026-12-01T09:00:00+09:00");
    }

    @Test
    void aJobWithoutSpread_hasNoFiringsOrOffset() throws Exception {
        JsonNode json = new ObjectMapper()
                .readTree(new PlanReport(
                                JOB.schedule(),
                                FROM,
                                OccurrenceCalculator.of(JOB.schedule())
                                        .timeline(FROM, FROM.plus(Duration.ofHours(2)), 10),
                                Optional.empty(),
                                Optional.of(new PlanReport.JobRules(Exclusions.NONE, CatchUpPolicy.none())))
                        .json());

        assertThat(json.get("deployed").asText()).isEqualTo("cron(0 * * * ? *)");
        assertThat(json.has("offset_minutes")).isFalse();
        assertThat(json.at("/occurrences/0").has("fires")).isFalse();
    }
}
