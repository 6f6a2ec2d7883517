package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.entities.ReconcileResult.Kind;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.scheduler.SchedulerClient;

/** The reconcile against moto's EventBridge Scheduler API, and the pacer on a test clock. */
class EntityReconcileTest {

    private static final JobDefinition REMINDER = JobDefinition.builder("reminder")
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters("locale"))
            .job(services -> context -> JobResult.empty())
            .build();
    private static final JobDefinition DIGEST = JobDefinition.builder("reminder-digest")
            .schedule("0 7 * * *", "UTC")
            .perEntity(EntityJob.parameters())
            .job(services -> context -> JobResult.empty())
            .build();
    private static final JobCatalog CATALOG = JobCatalog.of(REMINDER, DIGEST);

    private final CallCounter calls = new CallCounter();
    private final List<SchedulerClient> clients = new ArrayList<>();
    private EntityTargets targets;
    private EntityReconcile reconcile;
    private final List<Long> waits = new ArrayList<>();
    private long now;

    @BeforeEach
    void oneGroupPerTest() {
        SchedulerClient raw = SchedulerEmulator.client();
        clients.add(raw);
        targets = SchedulerEmulator.newGroup(raw, "r");
        SchedulerClient counted = SchedulerEmulator.client(calls);
        clients.add(counted);
        reconcile = new EntityReconcile(counted, CATALOG, targets, LedgerEmulator.tombstones(), testPacer(100));
    }

    @AfterEach
    void close() {
        clients.forEach(SchedulerClient::close);
    }

    private Pacer testPacer(double rate) {
        return new Pacer(rate, () -> now, nanos -> {
            waits.add(nanos);
            now += nanos;
        });
    }

    private static List<EntitySchedule> file(int n, String zone) {
        return IntStream.range(0, n)
                .mapToObj(i -> EntitySchedule.of(REMINDER, "e" + i, null, zone, Map.of("locale", "fr")))
                .toList();
    }

    @Test
    void aFirstRunCreatesEveryEntity_aSecondIsUnchangedAndWritesNothing_aChangedZoneUpdates() {
        ReconcileResult first = reconcile.reconcile("reminder", file(5, "UTC"), false, false, c -> {});
        assertThat(first.counts()).containsEntry(Kind.CREATE, 5).containsEntry(Kind.UNCHANGED, 0);
        assertThat(calls.of("CreateSchedule")).isEqualTo(5);

        calls.reset();
        ReconcileResult again = reconcile.reconcile("reminder", file(5, "UTC"), false, false, c -> {});
        assertThat(again.counts()).containsEntry(Kind.UNCHANGED, 5).containsEntry(Kind.CREATE, 0);
        assertThat(calls.writes()).isZero();

        List<EntitySchedule> moved = new ArrayList<>(file(5, "UTC"));
        moved.set(2, EntitySchedule.of(REMINDER, "e2", null, "Europe/Paris", Map.of("locale", "fr")));
        calls.reset();
        ReconcileResult update = reconcile.reconcile("reminder", moved, false, false, c -> {});
        assertThat(update.counts()).containsEntry(Kind.UPDATE, 1).containsEntry(Kind.UNCHANGED, 4);
        assertThat(calls.of("UpdateSchedule")).isEqualTo(1);
        assertThat(calls.writes()).isEqualTo(1);
    }

    @Test
    void aDryRunPlansCreateUpdateUnchangedAndDelete_andWritesNothing() {
        reconcile.reconcile("reminder", file(3, "UTC"), false, false, c -> {});
        List<EntitySchedule> next = new ArrayList<>(file(2, "UTC"));
        next.set(1, EntitySchedule.of(REMINDER, "e1", "0 10 * * *", "UTC", Map.of()));
        next.add(EntitySchedule.of(REMINDER, "new", null, "UTC", Map.of()));
        calls.reset();

        ReconcileResult plan = reconcile.reconcile("reminder", next, true, true, c -> {});

        assertThat(plan.changes())
                .extracting(c -> c.entity() + ":" + c.kind())
                .containsExactly("e0:UNCHANGED", "e1:UPDATE", "new:CREATE", "e2:DELETE");
        assertThat(calls.writes()).isZero();
        assertThat(new EntitySchedules(clients.get(0), CATALOG, targets, LedgerEmulator.tombstones()).list("reminder"))
                .extracting(EntitySchedule::entity)
                .containsExactly("e0", "e1", "e2");
    }

    @Test
    void pruneDeletesOnlyThisJobsEntitiesAbsentFromTheList() {
        reconcile.reconcile("reminder", file(4, "UTC"), false, false, c -> {});
        reconcile.reconcile(
                "reminder-digest",
                List.of(EntitySchedule.of(DIGEST, "e3", null, "UTC", Map.of())),
                false,
                false,
                c -> {});
        calls.reset();

        ReconcileResult pruned = reconcile.reconcile("reminder", file(2, "UTC"), true, false, c -> {});

        assertThat(pruned.counts()).containsEntry(Kind.DELETE, 2).containsEntry(Kind.UNCHANGED, 2);
        assertThat(calls.of("DeleteSchedule")).isEqualTo(2);
        EntitySchedules read = new EntitySchedules(clients.get(0), CATALOG, targets, LedgerEmulator.tombstones());
        assertThat(read.list("reminder")).extracting(EntitySchedule::entity).containsExactly("e0", "e1");
        assertThat(read.list("reminder-digest"))
                .extracting(EntitySchedule::entity)
                .containsExactly("e3");
    }

    @Test
    void anInterruptedRun_runAgain_writesOnlyTheRemainder() {
        int[] seen = {0};
        assertThatThrownBy(() -> reconcile.reconcile("reminder", file(10, "UTC"), false, false, c -> {
                    if (++seen[0] == 4) {
                        throw new IllegalStateException("interrupted after 4");
                    }
                }))
                .hasMessageContaining("interrupted after 4");
        calls.reset();

        ReconcileResult resumed = reconcile.reconcile("reminder", file(10, "UTC"), false, false, c -> {});

        assertThat(resumed.counts()).containsEntry(Kind.CREATE, 6).containsEntry(Kind.UNCHANGED, 4);
        assertThat(calls.of("CreateSchedule")).isEqualTo(6);
        assertThat(calls.writes()).isEqualTo(6);
        assertThat(new EntitySchedules(clients.get(0), CATALOG, targets, LedgerEmulator.tombstones()).list("reminder"))
                .hasSize(10);
    }

    @Test
    void anEntityTwice_isRefused_andNothingIsWritten() {
        List<EntitySchedule> twice = new ArrayList<>(file(3, "UTC"));
        twice.add(EntitySchedule.of(REMINDER, "e1", null, "Asia/Tokyo", Map.of()));

        assertThatThrownBy(() -> reconcile.reconcile("reminder", twice, false, false, c -> {}))
                .isInstanceOf(EntityScheduleException.class)
                .hasMessageContaining("entity")
                .hasMessageContaining("'e1' appears twice");
        assertThat(calls.writes()).isZero();
        assertThat(calls.of("GetSchedule")).isZero();
    }

    @Test
    void thePacerSpacesWritesByOneOverTheRate_andAPauseEarnsNoBurst() {
        Pacer pacer = testPacer(50);
        for (int i = 0; i < 5; i++) {
            pacer.acquire();
        }
        assertThat(waits).containsExactly(20_000_000L, 20_000_000L, 20_000_000L, 20_000_000L);
        waits.clear();
        now += 1_000_000_000L; // a second of nothing
        pacer.acquire();
        pacer.acquire();
        assertThat(waits).containsExactly(20_000_000L);
    }

    @Test
    void aRateOutsideItsBounds_isRefusedNamingIt() {
        assertThatThrownBy(() -> Pacer.perSecond(0))
                .hasMessageContaining("rate")
                .hasMessageContaining("1 to 10000");
    }
}
