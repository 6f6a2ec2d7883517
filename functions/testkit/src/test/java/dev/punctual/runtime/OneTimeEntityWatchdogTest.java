package dev.punctual.runtime;

import static dev.punctual.runtime.RuntimeFixture.scheduled;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.testkit.InMemoryLedgerStore;
import dev.punctual.ledger.testkit.InMemoryRunLedger;
import dev.punctual.stage.StageFlags;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Decision 0043: a one-time {@code at()} entity schedule is deleted by the scheduler after its delivery.
 * The watchdog never asks the scheduler, so the schedule's absence alone is nothing to it: a delivered
 * {@code at()} (its completion removed its due note, decision 0031) is not reported whatever its outcome,
 * and one whose delivery never came (the scheduler deletes it after its last failed attempt too, and
 * dead-letters the event) is reported once from the put's note. In-memory ledger and due index, moved clock.
 */
class OneTimeEntityWatchdogTest {

    private static final Instant AT = Instant.parse("2026-11-30T09:00:00Z");

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    private static JobDefinition launch() {
        return JobDefinition.builder("launch-mail")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters())
                .job(s -> ctx -> {
                    if (ctx.entity().orElseThrow().id().equals("broken")) {
                        throw new IllegalStateException("the tenant's mail server refused");
                    }
                    return JobResult.empty();
                })
                .build();
    }

    private static EntitySchedule once(String entity) {
        return EntitySchedule.of(launch(), entity, "at(2026-11-30T09:00:00)", "UTC", Map.of());
    }

    private RuntimeFixture stage() {
        RuntimeFixture f = new RuntimeFixture(
                AT.minus(Duration.ofHours(2)),
                StageFlags.defaultsFor("dev"),
                clock -> InMemoryRunLedger.create(clock, store),
                fixture -> Catalogs.withBuiltIns(JobCatalog.of(launch())),
                store.dueIndex());
        // Each entity's put noted its one occurrence for the watch (EntitySchedules.put).
        for (String entity : List.of("acme", "broken", "lost")) {
            f.ledger.noteEntityDue(
                    "launch-mail:" + entity,
                    OccurrenceCalculator.of(once(entity).schedule())::next);
        }
        return f;
    }

    private static void watchHourly(RuntimeFixture f, Instant first, Instant last) {
        for (Instant at = first; !at.isAfter(last); at = at.plus(Duration.ofHours(1))) {
            f.clock.advance(Duration.between(f.clock.peek(), at.plusSeconds(3)));
            f.invoke(scheduled(MissedRunWatchdog.ID, at));
        }
    }

    private static List<Object> overdueEntities(RuntimeFixture f) {
        return f.events.stream()
                .filter(LifecycleEvent.OccurrenceOverdue.class::isInstance)
                .map(e -> ((LifecycleEvent.OccurrenceOverdue) e).detail().get("entity"))
                .toList();
    }

    @Test
    void deliveredAtEntities_whoseSchedulesTheSchedulerDeleted_areNotReported_succeededOrFailed() {
        RuntimeFixture f = stage();
        f.clock.advance(Duration.between(f.clock.peek(), AT.plusSeconds(2)));
        f.invoke(scheduled(once("acme"), AT));
        f.invoke(scheduled(once("broken"), AT));
        // The scheduler now deletes both schedules (ActionAfterCompletion DELETE): nothing is written to the
        // ledger by that, and the watchdog reads only the ledger and its due index.

        watchHourly(f, AT.minus(Duration.ofMinutes(53)), AT.plus(Duration.ofHours(47)));

        assertThat(f.ledger
                        .run(new RunKey("launch-mail:acme", AT))
                        .orElseThrow()
                        .status())
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(f.ledger
                        .run(new RunKey("launch-mail:broken", AT))
                        .orElseThrow()
                        .status())
                .isEqualTo(RunStatus.FAILED);
        assertThat(overdueEntities(f))
                .as("only the entity never delivered; not the two whose schedules are gone after completion")
                .containsExactly("lost");
        // Decision 0047: both completions noted the entity in its job's completed list, outside the index
        // the watchdog reads (it reported neither over two days of checks).
        assertThat(f.ledger
                        .completedEntities("launch-mail", dev.punctual.ledger.CompletedShards.Position.START, 10)
                        .entities())
                .extracting(e -> e.entity() + " " + e.status() + " " + e.occurrence())
                .containsExactlyInAnyOrder("acme SUCCEEDED " + AT, "broken FAILED " + AT);
    }

    @Test
    void anAtEntityWhoseScheduleIsGoneWithoutADelivery_isReportedOnce_atItsOccurrence() {
        RuntimeFixture f = stage();

        watchHourly(f, AT.minus(Duration.ofMinutes(53)), AT.plus(Duration.ofHours(47)));

        assertThat(overdueEntities(f)).containsExactlyInAnyOrder("acme", "broken", "lost");
        assertThat(f.events.stream()
                        .filter(LifecycleEvent.OccurrenceOverdue.class::isInstance)
                        .map(e ->
                                ((LifecycleEvent.OccurrenceOverdue) e).detail().get("occurrence")))
                .containsOnly(AT.toString());
    }
}
