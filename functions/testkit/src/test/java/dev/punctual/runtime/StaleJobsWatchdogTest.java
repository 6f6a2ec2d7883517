package dev.punctual.runtime;

import static dev.punctual.runtime.RuntimeFixture.scheduled;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.DueIndex;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageFreshness;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Freshness (decision 0042): the watchdog, run by the runtime on the in-memory ledger every hour at minute 7
 * with a moved clock, reports a job without a success within its bound once, counts the stale jobs in one
 * stage-wide metric on every run, and leaves alone a job without a bound.
 */
class StaleJobsWatchdogTest {

    private static final Instant DAY1 = Instant.parse("2026-11-30T14:00:00Z"); // report at 09:00 New York
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The watchdog and one daily job, shaped by {@code bound}, under the stage's default {@code freshness}. */
    private static RuntimeFixture stage(
            Instant start, UnaryOperator<JobDefinition.Builder> bound, StageFreshness freshness) {
        return new RuntimeFixture(
                start,
                StageFlags.defaultsFor("dev"),
                RuntimeFixture::inMemory,
                f -> Catalogs.withBuiltIns(JobCatalog.of(bound.apply(JobDefinition.builder("report")
                                .schedule("0 9 * * *", "America/New_York")
                                .job(s -> ctx -> JobResult.empty()))
                        .build())),
                DueIndex.NONE,
                freshness);
    }

    private static RuntimeFixture withinADay(Instant start) {
        return stage(start, b -> b.freshWithin(Duration.ofHours(26)), StageFreshness.NONE);
    }

    /** Runs the watchdog every hour at minute 7, from {@code first} through {@code last}. */
    private static void watchHourly(RuntimeFixture f, Instant first, Instant last) {
        for (Instant at = first; !at.isAfter(last); at = at.plus(Duration.ofHours(1))) {
            f.clock.advance(Duration.between(f.clock.peek(), at.plusSeconds(3)));
            f.invoke(scheduled(MissedRunWatchdog.ID, at));
        }
    }

    private static List<LifecycleEvent.JobStale> stale(RuntimeFixture f) {
        return f.events.stream()
                .filter(LifecycleEvent.JobStale.class::isInstance)
                .map(LifecycleEvent.JobStale.class::cast)
                .toList();
    }

    /** The StaleJobs value of each heartbeat, in order; -1 for a heartbeat without it. */
    private static List<Integer> staleCounts(RuntimeFixture f) {
        List<Integer> counts = new ArrayList<>();
        for (JsonNode line : lines(f, "watchdog checked")) {
            counts.add(
                    line.has(MissedRunWatchdog.STALE_JOBS)
                            ? line.get(MissedRunWatchdog.STALE_JOBS).asInt()
                            : -1);
        }
        return counts;
    }

    @Test
    void aJobThatSucceededRecently_isFresh_andTheMetricSaysZero() {
        RuntimeFixture f = withinADay(DAY1);
        f.invoke(scheduled("report", DAY1));

        watchHourly(f, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-12-01T15:07:00Z"));

        assertThat(stale(f)).isEmpty();
        assertThat(staleCounts(f)).hasSize(25).containsOnly(0);
    }

    @Test
    void aJobThatSucceededLongAgo_isReportedStaleOnce_namingItsLastSuccess_andCountedOnEveryRunAfter()
            throws Exception {
        RuntimeFixture f = withinADay(DAY1);
        f.clock.advance(Duration.ofSeconds(30));
        f.invoke(scheduled("report", DAY1)); // succeeds at 14:00:30; no delivery after it

        watchHourly(f, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-12-02T15:07:00Z"));

        LifecycleEvent.JobStale event = stale(f).stream()
                .reduce((a, b) -> {
                    throw new AssertionError("reported twice: " + a + ", " + b);
                })
                .orElseThrow();
        Instant lastSuccess = DAY1.plusSeconds(30);
        assertThat(event.detail())
                .containsEntry("job", "report")
                .containsEntry("reason", "STALE")
                .containsEntry("occurrence", lastSuccess.toString())
                .containsEntry("occurrence_local", "2026-11-30T09:00:30-05:00 America/New_York")
                .containsEntry("last_success", lastSuccess.toString())
                .containsEntry("fresh_within", "PT26H")
                .containsEntry(LifecycleEvent.NEEDS_ATTENTION, true);
        assertThat(event.age())
                .as("judged at the first run after 14:00:30 + 26 h: 2026-12-01T16:07")
                .isEqualTo(Duration.between(lastSuccess, Instant.parse("2026-12-01T16:07:00Z")));
        List<Integer> counts = staleCounts(f);
        int turned = counts.indexOf(1);
        assertThat(counts.subList(0, turned)).containsOnly(0);
        assertThat(counts.subList(turned, counts.size()))
                .as("the count stays 1 while no success comes, so the alarm stays in ALARM")
                .containsOnly(1);
        assertThat(lines(f, MissedRunWatchdog.STALE_MESSAGE))
                .singleElement()
                .satisfies(l -> assertThat(l.get("level").asText()).isEqualTo("WARN"));
    }

    @Test
    void aJobThatNeverSucceeded_isCountedFromItsGoLive() {
        Instant deployed = Instant.parse("2026-11-30T15:05:00Z");
        RuntimeFixture f = withinADay(deployed); // never delivered: no success ever

        watchHourly(f, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-12-01T17:07:00Z"));
        assertThat(stale(f))
                .as("watched since the first watchdog run, 15:07:03; its bound runs out at 17:07:03 next day")
                .isEmpty();

        watchHourly(f, Instant.parse("2026-12-01T18:07:00Z"), Instant.parse("2026-12-01T20:07:00Z"));
        assertThat(stale(f)).singleElement().satisfies(e -> {
            assertThat(e.succeeded()).isFalse();
            assertThat(e.detail()).doesNotContainKey("last_success");
            assertThat(e.since().toInstant()).isEqualTo(Instant.parse("2026-11-30T15:07:03Z"));
        });
    }

    @Test
    void aSuccessAfterStale_makesTheJobFreshAgain_andTheMetricReturnsToZero() {
        RuntimeFixture f = withinADay(DAY1);
        f.invoke(scheduled("report", DAY1));
        watchHourly(f, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-12-02T12:07:00Z"));
        assertThat(stale(f)).hasSize(1);

        Instant day3 = Instant.parse("2026-12-02T14:00:00Z");
        f.clock.advance(Duration.between(f.clock.peek(), day3));
        f.invoke(scheduled("report", day3));
        watchHourly(f, Instant.parse("2026-12-02T15:07:00Z"), Instant.parse("2026-12-02T16:07:00Z"));

        List<Integer> counts = staleCounts(f);
        assertThat(counts.subList(counts.size() - 2, counts.size())).containsOnly(0);
        assertThat(stale(f)).hasSize(1);
    }

    @Test
    void aJobWithoutABound_isNotWatched_andNoMetricIsPublished() {
        RuntimeFixture f = stage(DAY1, b -> b, StageFreshness.NONE);

        watchHourly(f, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-12-03T15:07:00Z"));

        assertThat(stale(f)).isEmpty();
        assertThat(staleCounts(f))
                .as("no StaleJobs at all: a stage without a watched job pays for no metric")
                .containsOnly(-1);
    }

    @Test
    void theStagesDefault_holdsAJobWithoutItsOwnBound_butNotOneThatOptedOut() {
        RuntimeFixture held = stage(DAY1, b -> b, new StageFreshness(1));
        RuntimeFixture optedOut = stage(DAY1, JobDefinition.Builder::notWatchedForFreshness, new StageFreshness(1));
        held.invoke(scheduled("report", DAY1));
        optedOut.invoke(scheduled("report", DAY1));

        watchHourly(held, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-12-02T15:07:00Z"));
        watchHourly(optedOut, Instant.parse("2026-11-30T15:07:00Z"), Instant.parse("2026-12-02T15:07:00Z"));

        assertThat(stale(held))
                .singleElement()
                .satisfies(e -> assertThat(e.freshWithin()).isEqualTo(Duration.ofHours(25)));
        assertThat(stale(optedOut)).isEmpty();
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
}
