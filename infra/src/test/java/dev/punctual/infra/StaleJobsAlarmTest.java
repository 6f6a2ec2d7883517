package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.stage.StageFreshness;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The paging {@code StaleJobs} alarm (decision 0042), as synthesised, against the metric the watchdog really
 * writes (the runtime on the in-memory ledger, its heartbeat read as CloudWatch reads EMF); only a stage that
 * watches a job for freshness has it, and the stage's default reaches every function's environment.
 */
class StaleJobsAlarmTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-30T14:00:00Z");

    private static JobDefinition daily(String id, Duration bound) {
        JobDefinition.Builder b = JobDefinition.builder(id)
                .schedule("0 9 * * *", "America/New_York")
                .job(s -> ctx -> JobResult.empty());
        return (bound == null ? b : b.freshWithin(bound)).build();
    }

    private static Optional<Map<String, Object>> staleAlarm(StageStack stage) {
        return Templates.properties(Template.fromStack(stage), "AWS::CloudWatch::Alarm").values().stream()
                .filter(a -> "Punctual-dev-StaleJobs".equals(a.get("AlarmName")))
                .findFirst();
    }

    private static StageStack dev(StageConfig config, JobDefinition... jobs) {
        return Synth.stage(config, new JobCatalog(List.of(jobs)));
    }

    @Test
    void aStageWithAWatchedJob_hasOneAlarmOnTheStageWideMetric_pagingAtOneStaleJob() {
        Map<String, Object> alarm = staleAlarm(dev(Stages.named("dev"), daily("report", Duration.ofHours(26))))
                .orElseThrow(() -> new AssertionError("no StaleJobs alarm"));

        assertThat(alarm)
                .containsEntry("MetricName", "StaleJobs")
                .containsEntry("Namespace", "Punctual")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("Period", 3600)
                .containsEntry("Threshold", 1)
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("TreatMissingData", "notBreaching");
        assertThat(alarm.get("Dimensions").toString()).contains("stage").contains("dev");
        assertThat(alarm.get("OKActions")).isNotNull().isEqualTo(alarm.get("AlarmActions"));
        assertThat((String) alarm.get("AlarmDescription")).endsWith("(docs/runbook.md#stale)");
    }

    @Test
    void aStageWatchingNoJob_hasNoStaleAlarm_andNoFreshnessInItsEnvironment() {
        StageStack stage = dev(Stages.named("dev"), daily("report", null));

        assertThat(staleAlarm(stage)).isEmpty();
        assertThat(Template.fromStack(stage).toJSON().toString()).doesNotContain(StageFreshness.ENV);
    }

    @Test
    void theStagesDefault_watchesAJobWithoutItsOwnBound_andReachesEveryFunctionsEnvironment() {
        StageStack stage = dev(Stages.named("dev").withFreshWithinPeriods(3), daily("report", null));

        assertThat(staleAlarm(stage)).isPresent();
        assertThat(Templates.properties(Template.fromStack(stage), "AWS::Lambda::Function").values().stream()
                        .filter(f -> String.valueOf(f.get("Environment")).contains("PUNCTUAL_STAGE"))
                        // The dead-letter consumer (decision 0044) runs no job and no watchdog: no bound to know.
                        .filter(f -> !String.valueOf(f.get("Environment")).contains("punctual.dead-letters"))
                        .toList())
                .as("every pool's function")
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.get("Environment").toString()).contains(StageFreshness.ENV + "=3"));
    }

    @Test
    void theWatchdogsHeartbeat_carriesTheMetricTheAlarmReads_withTheStageOnly_andTheEventTheRuleSends()
            throws IOException {
        InMemoryStage stage = new InMemoryStage(T0, daily("report", Duration.ofHours(26)));
        stage.deliver("report", T0, 1);
        stage.deliver(MissedRunWatchdog.ID, Instant.parse("2026-12-01T16:07:00Z"), 1);

        List<JsonNode> heartbeats = new ArrayList<>();
        for (String line : stage.lines) {
            JsonNode node = JSON.readTree(line);
            if ("watchdog checked".equals(node.path("message").asText())) {
                heartbeats.add(node);
            }
        }
        assertThat(heartbeats).singleElement().satisfies(h -> {
            assertThat(h.get("StaleJobs").asInt()).isEqualTo(1);
            assertThat(h.at("/_aws/CloudWatchMetrics/0/Dimensions").toString()).isEqualTo("[[\"stage\"]]");
        });
        assertThat(stage.events)
                .filteredOn(LifecycleEvent.JobStale.class::isInstance)
                .singleElement()
                .satisfies(e -> assertThat(LifecycleAlerts.DETAIL_TYPES).contains(e.detailType()));
    }
}
