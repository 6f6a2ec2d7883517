package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.catchup.CatchUpMode;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle events the real runtime emits for a per-entity job's occurrences name the entity, right
 * after the job, as the outcome line does; a job's own occurrences carry no {@code entity} key at all.
 */
class EntityLifecycleEventsTest {

    private static final Instant T0 = Instant.parse("2026-11-30T14:00:00Z");

    private static JobDefinition.Builder perEntity(String id, String expression) {
        return JobDefinition.builder(id).schedule(expression, "UTC").perEntity(EntityJob.parameters("locale"));
    }

    @Test
    void anEntitysRunSucceeded_namesTheEntity_andAJobsOwnRunHasNoEntityKey() {
        JobDefinition report = perEntity("tenant-report", "0 15 * * *")
                .job(s ->
                        ctx -> JobResult.of("tenant", ctx.entity().orElseThrow().id()))
                .build();
        JobDefinition digest = JobDefinition.builder("digest")
                .schedule("0 9 * * *", "America/New_York")
                .job(s -> ctx -> JobResult.empty())
                .build();
        InMemoryStage stage = new InMemoryStage(T0, report, digest);

        stage.deliver(EntitySchedule.of(report, "acme", null, "Europe/Paris", Map.of("locale", "fr")), T0);
        stage.deliver("digest", T0, 1);

        assertThat(stage.events).hasSize(2);
        assertThat(stage.events.get(0).detail())
                .containsEntry("job", "tenant-report")
                .containsEntry("entity", "acme")
                .containsEntry("occurrence", "2026-11-30T14:00:00Z");
        assertThat(stage.events.get(0).detail().keySet()).startsWith("stage", "job", "entity");
        assertThat(stage.events.get(0).detail().toString()).doesNotContain("locale");
        assertThat(stage.events.get(1).detail()).containsEntry("job", "digest").doesNotContainKey("entity");
    }

    @Test
    void anEntitysRunFailedAfterItsLastAttempt_namesTheEntity_inTheEntitysZone() {
        JobDefinition report = perEntity("tenant-report", "0 15 * * *")
                .maxAttempts(1)
                .job(s -> ctx -> {
                    throw new IllegalStateException("no connection");
                })
                .build();
        InMemoryStage stage = new InMemoryStage(T0, report);

        stage.deliver(EntitySchedule.of(report, "acme", null, "Europe/Paris", Map.of()), T0);

        assertThat(stage.events).singleElement().satisfies(e -> {
            assertThat(e).isInstanceOf(LifecycleEvent.RunFailed.class);
            assertThat(e.needsAttention()).isTrue();
            assertThat(e.detail())
                    .containsEntry("entity", "acme")
                    .containsEntry("occurrence_local", "2026-11-30T15:00:00+01:00 Europe/Paris");
        });
    }

    @Test
    void anEntitysMissedRange_namesTheEntity_andOnlyThatEntity() {
        JobDefinition tick = perEntity("tenant-tick", "*/15 * * * *")
                .catchUp(new CatchUpPolicy(1, Duration.ofHours(1), CatchUpMode.OLDEST_FIRST))
                .job(s -> ctx -> JobResult.empty())
                .build();
        InMemoryStage stage = new InMemoryStage(T0, tick);
        EntitySchedule tokyo = EntitySchedule.of(tick, "kk", null, "Asia/Tokyo", Map.of());
        EntitySchedule paris = EntitySchedule.of(tick, "pp", null, "Europe/Paris", Map.of());

        stage.deliver(tokyo, T0);
        stage.deliver(paris, T0);
        stage.deliver(tokyo, T0.plus(Duration.ofHours(3)));

        assertThat(stage.events)
                .filteredOn(LifecycleEvent.OccurrencesMissed.class::isInstance)
                .singleElement()
                .satisfies(e -> assertThat(e.detail())
                        .containsEntry("entity", "kk")
                        .containsEntry("occurrence_local", "2026-11-30T23:15:00+09:00 Asia/Tokyo"));
        assertThat(stage.events)
                .filteredOn(LifecycleEvent.RunSucceeded.class::isInstance)
                .extracting(e -> e.detail().get("entity"))
                .containsOnly("kk", "pp");
    }
}
