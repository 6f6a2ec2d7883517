package dev.punctual.runtime;

import static dev.punctual.runtime.RuntimeFixture.scheduled;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobLease;
import dev.punctual.job.JobResult;
import dev.punctual.job.SuppressedDelivery;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Trigger;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MissedRunWatchdogTest {

    private static final Instant DAY1 = Instant.parse("2026-11-30T14:00:00Z"); // report at 09:00 New York
    private final List<String> lines = new ArrayList<>();

    @Test
    void jobWhoseLatestDueOccurrenceWasNeverDelivered_isReportedOverdue_withTheEmfMetric() throws Exception {
        RuntimeFixture f = RuntimeFixture.dev(DAY1);
        f.invoke(scheduled("report", DAY1));
        Instant watchAt =
                DAY1.plus(Duration.ofDays(2)).plus(Duration.ofHours(1)).plusSeconds(7 * 60);

        JobResult result = watch(f, watchAt);

        assertThat(result.summary().get("overdue")).isEqualTo(List.of("report"));
        JsonNode line = new ObjectMapper().readTree(lines.get(0));
        assertThat(line.get("message").asText()).isEqualTo("occurrence overdue");
        assertThat(line.get("expected").asText()).isEqualTo("2026-12-02T14:00:00Z");
        assertThat(line.get("Overdue").asInt()).isEqualTo(1);
        assertThat(line.at("/_aws/CloudWatchMetrics/0/Dimensions").toString())
                .as("stage-wide: the job did not opt in to metrics of its own")
                .isEqualTo("[[\"stage\"]]");
        JsonNode heartbeat = new ObjectMapper().readTree(lines.get(lines.size() - 1));
        assertThat(heartbeat.get("WatchdogRuns").asInt()).isEqualTo(1);
    }

    @Test
    void jobDeliveredOnTime_orSkippedWithARecord_isNotOverdue() {
        RuntimeFixture f = RuntimeFixture.dev(DAY1);
        f.invoke(scheduled("report", DAY1));
        Instant day2 = DAY1.plus(Duration.ofDays(1));
        f.clock.advance(Duration.ofDays(1));
        f.ledger.maintenanceOn(new MaintenanceRequest(
                List.of("report"),
                new MaintenanceHold("restore", "ops", day2.plusSeconds(600)),
                Duration.ZERO,
                Duration.ofMillis(10)));
        f.invoke(scheduled("report", day2)); // recorded as SKIP MAINTENANCE: delivered, just not run

        JobResult result = watch(f, day2.plus(Duration.ofHours(2)));

        assertThat(result.summary().get("overdue")).isEqualTo(List.of());
        assertThat(lines).noneMatch(l -> l.contains("occurrence overdue"));
    }

    @Test
    void jobThatNeverRan_isLeftAlone() {
        RuntimeFixture f = RuntimeFixture.dev(DAY1);

        JobResult result = watch(f, DAY1.plus(Duration.ofDays(3)));

        assertThat(result.summary().get("overdue")).isEqualTo(List.of());
    }

    private JobResult watch(RuntimeFixture f, Instant at) {
        StructuredLog log = new StructuredLog(lines::add, f.clock, "punctual", Redactor.standard());
        JobContext context = new JobContext(
                MissedRunWatchdog.ID,
                at,
                at.atZone(ZoneOffset.UTC),
                Trigger.SCHEDULED,
                1,
                JobLease.until(at.plusSeconds(60)),
                StageFlags.defaultsFor("dev"),
                new JobContext.JobLog(log, MissedRunWatchdog.ID, at),
                new SuppressedDelivery("dev", log),
                f.clock);
        return new MissedRunWatchdog(new LedgerHistory(f.ledger), f.catalog()).run(context);
    }
}
