package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The paging {@code Failures} alarm, as synthesised, against the metrics the runtime really writes (the
 * runtime on the in-memory ledger, its outcome lines read as CloudWatch reads EMF): a failed attempt
 * that Lambda retries successfully does not move the metric the alarm reads, an occurrence that fails
 * its last attempt does, once; every failed attempt is still counted stage-wide for the dashboard.
 */
class FailuresAlarmTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-30T14:00:00Z");

    private static Map<String, Object> failures;
    private static Template template;

    @BeforeAll
    static void synth() {
        template = Template.fromStack(Synth.stage("dev"));
        failures = Templates.properties(template, "AWS::CloudWatch::Alarm").entrySet().stream()
                .filter(e -> e.getKey().startsWith("AlertingFailures"))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no Failures alarm in the dev stage"));
    }

    @Test
    void attemptFailureThatLambdaRetriesSuccessfully_doesNotMoveThePagingMetric_butCountsAsAFailedAttempt() {
        AtomicInteger runs = new AtomicInteger();
        InMemoryStage stage = new InMemoryStage(
                T0,
                JobDefinition.builder("flaky")
                        .schedule("0 9 * * *", "America/New_York")
                        .maxAttempts(3)
                        .job(s -> ctx -> {
                            if (runs.incrementAndGet() == 1) {
                                throw new IllegalStateException("connection reset");
                            }
                            return JobResult.empty();
                        })
                        .build());

        stage.deliver("flaky", T0, 1);
        stage.deliver("flaky", T0, 2);

        assertThat(runs).hasValue(2);
        assertThat(sumOfTheAlarmsMetric(stage.lines))
                .as("what the Failures alarm reads")
                .isZero();
        assertThat(sum(stage.lines, "Fail", Map.of("stage", "dev")))
                .as("failed attempts, stage-wide")
                .isEqualTo(1);
    }

    @Test
    void occurrenceThatFailsItsLastAttempt_movesThePagingMetricOnce() {
        InMemoryStage stage = new InMemoryStage(
                T0,
                JobDefinition.builder("boom")
                        .schedule("0 9 * * *", "America/New_York")
                        .maxAttempts(2)
                        .job(s -> ctx -> {
                            throw new IllegalStateException("no connection");
                        })
                        .build());

        stage.deliver("boom", T0, 1);
        stage.deliver("boom", T0, 2);

        assertThat(sumOfTheAlarmsMetric(stage.lines)).isEqualTo(1);
        assertThat(sum(stage.lines, "Fail", Map.of("stage", "dev"))).isEqualTo(2);
    }

    @Test
    void aDeliveryThatFindsTheAttemptsUsedUp_isAFinalFailureToo() {
        InMemoryStage stage = new InMemoryStage(
                T0,
                JobDefinition.builder("boom")
                        .schedule("0 9 * * *", "America/New_York")
                        .maxAttempts(1)
                        .job(s -> ctx -> {
                            throw new IllegalStateException("no connection");
                        })
                        .build());
        stage.deliver("boom", T0, 1);
        stage.lines.clear();

        // A duplicate delivery of the exhausted occurrence: FAIL ATTEMPTS_EXHAUSTED, nothing will retry it.
        stage.deliver("boom", T0, 1);

        assertThat(stage.lines).anyMatch(l -> l.contains("\"reason\":\"ATTEMPTS_EXHAUSTED\""));
        assertThat(sumOfTheAlarmsMetric(stage.lines)).isEqualTo(1);
    }

    @Test
    void failuresAlarm_readsOneStageWideMetric_andPagesOnTheFirstFinalFailure() {
        assertThat(failures)
                .containsEntry("Namespace", "Punctual")
                .containsEntry("MetricName", "FinalFail")
                .containsEntry("Statistic", "Sum")
                .containsEntry("Threshold", 1)
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Dimensions", List.of(Map.of("Name", "stage", "Value", "dev")));
    }

    @Test
    void dashboard_graphsFailedAttemptsBesideFinalFailures() {
        String body = template.findResources("AWS::CloudWatch::Dashboard").toString();

        assertThat(body).contains("Failed attempts and final failures", "\"Fail\"", "\"FinalFail\"");
    }

    /** The sum, over the lines, of the metric the synthesised Failures alarm reads, with its dimensions. */
    @SuppressWarnings("unchecked")
    private static long sumOfTheAlarmsMetric(List<String> lines) {
        Map<String, String> dimensions = new TreeMap<>();
        for (Map<String, Object> d : (List<Map<String, Object>>) failures.get("Dimensions")) {
            dimensions.put((String) d.get("Name"), (String) d.get("Value"));
        }
        return sum(lines, (String) failures.get("MetricName"), dimensions);
    }

    /**
     * What CloudWatch sums for one metric from EMF lines: the metric's value on every line that declares
     * it under exactly this dimension set with these values.
     */
    static long sum(List<String> lines, String metric, Map<String, String> dimensions) {
        long total = 0;
        for (String text : lines) {
            JsonNode line;
            try {
                line = JSON.readTree(text);
            } catch (IOException e) {
                throw new AssertionError(text, e);
            }
            for (JsonNode directive : line.at("/_aws/CloudWatchMetrics")) {
                boolean declared = false;
                for (JsonNode m : directive.path("Metrics")) {
                    declared |= m.path("Name").asText().equals(metric);
                }
                for (JsonNode set : directive.path("Dimensions")) {
                    Map<String, String> values = new TreeMap<>();
                    set.forEach(name ->
                            values.put(name.asText(), line.path(name.asText()).asText()));
                    if (declared && values.equals(new TreeMap<>(dimensions))) {
                        total += line.path(metric).asLong();
                    }
                }
            }
        }
        return total;
    }
}
