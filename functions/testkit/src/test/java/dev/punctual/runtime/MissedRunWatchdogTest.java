package dev.punctual.runtime;

import static dev.punctual.runtime.RuntimeFixture.scheduled;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobLease;
import dev.punctual.job.JobResult;
import dev.punctual.job.OverdueReports;
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
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> lines = new ArrayList<>();

    /** The watchdog and one daily job, run by the runtime on the in-memory ledger. */
    private static RuntimeFixture stage(Instant start) {
        return new RuntimeFixture(
                start,
                StageFlags.defaultsFor("dev"),
                RuntimeFixture::inMemory,
                f -> Catalogs.withBuiltIns(JobCatalog.of(JobDefinition.builder("report")
                        .schedule("0 9 * * *", "America/New_York")
                        .job(s -> ctx -> JobResult.empty())
                        .build())));
    }

    /** Runs the watchdog by the runtime every hour at minute 7, from {@code first} through {@code last}. */
    private static void watchHourly(RuntimeFixture f, Instant first, Instant last) {
        for (Instant at = first; !at.isAfter(last); at = at.plus(Duration.ofHours(1))) {
            f.clock.advance(Duration.between(f.clock.peek(), at.plusSeconds(3)));
            f.invoke(scheduled(MissedRunWatchdog.ID, at));
        }
    }

    private static List<LifecycleEvent.OccurrenceOverdue> overdue(RuntimeFixture f) {
        return f.events.stream()
                .filter(LifecycleEvent.OccurrenceOverdue.class::isInstance)
                .map(LifecycleEvent.OccurrenceOverdue.class::cast)
                .toList();
    }

    @Test
    void jobThatStoppedBeingDelivered_isReportedOncePerUndeliveredOccurrence_withTheEmfMetricAndAnEvent()
            throws Exception {
        RuntimeFixture f = stage(DAY1);
        f.invoke(scheduled("report", DAY1));

        watchHourly(
                f,
                DAY1.plus(Duration.ofMinutes(67)),
                DAY1.plus(Duration.ofDays(2)).plus(Duration.ofMinutes(247)));

        assertThat(overdue(f))
                .extracting(e -> e.occurrence().toInstant().toString())
                .containsExactly("2026-12-01T14:00:00Z", "2026-12-02T14:00:00Z");
        LifecycleEvent.OccurrenceOverdue first = overdue(f).get(0);
        assertThat(first.detail())
                .containsEntry("job", "report")
                .containsEntry("occurrence_local", "2026-12-01T09:00:00-05:00 America/New_York")
                .containsEntry("reason", "NOT_DELIVERED")
                .containsEntry(LifecycleEvent.NEEDS_ATTENTION, true);
        List<JsonNode> overdueLines = lines(f, MissedRunWatchdog.OVERDUE_MESSAGE);
        assertThat(overdueLines).hasSize(2);
        assertThat(overdueLines.get(0).get("Overdue").asInt()).isEqualTo(1);
        assertThat(overdueLines
                        .get(0)
                        .at("/_aws/CloudWatchMetrics/0/Dimensions")
                        .toString())
                .as("stage-wide: the job did not opt in to metrics of its own")
                .isEqualTo("[[\"stage\"]]");
        assertThat(lines(f, "watchdog checked"))
                .as("one heartbeat per watchdog run")
                .hasSize(52)
                .allSatisfy(l -> assertThat(l.get("WatchdogRuns").asInt()).isEqualTo(1));
    }

    @Test
    void jobDeployedAMinuteAgo_isNotReported_butItsFirstUndeliveredOccurrenceIsReportedOnce() {
        Instant deployed = Instant.parse("2026-11-30T15:05:00Z"); // after today's 09:00 New York
        RuntimeFixture f = stage(deployed);

        watchHourly(f, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-11-30T15:07:00Z"));
        assertThat(overdue(f))
                .as("today's occurrence was due before the job went live")
                .isEmpty();

        watchHourly(f, Instant.parse("2026-11-30T16:07:00Z"), Instant.parse("2026-12-01T18:07:00Z"));
        assertThat(overdue(f))
                .as("never delivered since it went live: its first occurrence, once")
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.job()).isEqualTo("report");
                    assertThat(e.occurrence().toInstant()).isEqualTo(Instant.parse("2026-12-01T14:00:00Z"));
                });
    }

    @Test
    void neverRunJob_isNotReportedBeforeItsFirstOccurrenceAfterGoLiveIsDue() {
        Instant deployed = Instant.parse("2026-11-30T15:05:00Z");
        RuntimeFixture f = stage(deployed);

        watchHourly(f, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-12-01T14:07:00Z"));

        assertThat(overdue(f))
                .as("its first occurrence after go-live is 2026-12-01T14:00Z, plus the grace")
                .isEmpty();
    }

    @Test
    void catalogRevision_changesWithASchedule_andTheNoteReadsBackOnlyWhenComplete() {
        Instant now = Instant.parse("2026-12-01T15:07:00Z");
        JobCatalog one = Catalogs.withBuiltIns(JobCatalog.of(JobDefinition.builder("report")
                .schedule("0 9 * * *", "America/New_York")
                .job(s -> ctx -> JobResult.empty())
                .build()));
        JobCatalog two = Catalogs.withBuiltIns(JobCatalog.of(JobDefinition.builder("report")
                .schedule("0 10 * * *", "America/New_York")
                .job(s -> ctx -> JobResult.empty())
                .build()));

        assertThat(MissedRunWatchdog.revision(one)).isNotEqualTo(MissedRunWatchdog.revision(two));
        MissedRunWatchdog.Watch watch = new MissedRunWatchdog.Watch(MissedRunWatchdog.revision(two), now, now);
        assertThat(MissedRunWatchdog.Watch.from(dev.punctual.json.Json.write(watch.fields())))
                .contains(watch);
        assertThat(MissedRunWatchdog.Watch.from("{\"checked\":3,\"overdue\":[\"report\"]}"))
                .as("an older watchdog's summary is ignored, as on a new stage")
                .isEmpty();
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

        f.clock.advance(Duration.ofHours(2));
        JobResult result = watch(f, day2.plus(Duration.ofHours(2)));

        assertThat(result.summary().get("overdue")).isEqualTo(0);
        assertThat(lines).noneMatch(l -> l.contains(MissedRunWatchdog.OVERDUE_MESSAGE));
    }

    private static List<JsonNode> lines(RuntimeFixture f, String message) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : f.lines) {
            try {
                JsonNode node = JSON.readTree(line);
                if (message.equals(node.path("message").asText())) {
                    out.add(node);
                }
            } catch (java.io.IOException e) {
                throw new AssertionError(line, e);
            }
        }
        return out;
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
        return new MissedRunWatchdog(new LedgerHistory(f.ledger), f.catalog(), OverdueReports.NONE).run(context);
    }
}
