package dev.punctual.entities;

import dev.punctual.entities.ReconcileResult.Change;
import dev.punctual.entities.ReconcileResult.Kind;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;
import software.amazon.awssdk.services.scheduler.model.ScheduleSummary;

/**
 * Makes a job's entity schedules in the group the ones of a list (an import's file): each entity is
 * created, updated or left unchanged by {@link EntitySchedules#put} (its compare, not a second one), and
 * with {@code prune} each of this job's schedules in the group whose entity is not in the list is deleted.
 *
 * <p>Checked before anything is called: every schedule again through {@link EntitySchedule#of}, all of the
 * job given, no entity twice. A refusal writes nothing.
 *
 * <p>Resume: an interrupted reconcile is simply run again. Each put is idempotent, so what the first run
 * confirmed is UNCHANGED on the second, which costs one GetSchedule per entity and no schedule write (and
 * the put's refused tombstone clear on the ledger, {@link EntitySchedules#put}); there is no checkpoint
 * file to go stale when the file changes.
 *
 * <p>Dry run: reads each entity's schedule (GetSchedule) and compares it as a put would
 * ({@link DeployedForm#sameAs}), and lists the prune candidates, writing nothing.
 *
 * <p>Each write waits for its slot of the {@link Pacer}, below the scheduler's write quotas. The entities
 * are put by a number of writers at once ({@link Writers}; one by default), since one writer is bound by
 * a call's round trip; the pacer is shared, so more writers never mean more than its rate.
 */
public final class EntityReconcile {

    /** The most writers a reconcile takes. */
    public static final int MAX_WRITERS = Writers.MAX;

    private final SchedulerClient scheduler;
    private final JobCatalog catalog;
    private final EntityTargets targets;
    private final EntitySchedules schedules;
    private final Pacer pacer;
    private final Writers writers;

    /**
     * One writer.
     *
     * @param tombstones the stage's ledger: a put clears a deleted entity's tombstone, a prune writes one
     */
    public EntityReconcile(
            SchedulerClient scheduler,
            JobCatalog catalog,
            EntityTargets targets,
            EntityTombstones tombstones,
            Pacer pacer) {
        this(scheduler, catalog, targets, tombstones, pacer, 1);
    }

    /**
     * @param tombstones the stage's ledger: a put clears a deleted entity's tombstone, a prune writes one
     * @param writers puts (and deletes) in flight at once, 1 to {@value Writers#MAX}
     */
    public EntityReconcile(
            SchedulerClient scheduler,
            JobCatalog catalog,
            EntityTargets targets,
            EntityTombstones tombstones,
            Pacer pacer,
            int writers) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.targets = Objects.requireNonNull(targets, "targets");
        this.pacer = Objects.requireNonNull(pacer, "pacer");
        this.writers = new Writers(writers);
        this.schedules = new EntitySchedules(scheduler, catalog, targets, tombstones);
    }

    /**
     * @param progress told of each entity done, one at a time, as it completes (with several writers not in
     *     the list's order), for a progress display; the result lists them in order
     * @throws EntityScheduleException for a schedule of another job, one that fails its checks, or an entity twice
     */
    public ReconcileResult reconcile(
            String job, List<EntitySchedule> desired, boolean prune, boolean dryRun, Consumer<Change> progress) {
        JobDefinition definition = catalog.find(job)
                .filter(JobDefinition::isPerEntity)
                .orElseThrow(() -> new EntityScheduleException(
                        "job",
                        "'" + job + "' is not a per-entity job of the catalog; accepted: a job declared with"
                                + " perEntity(...)"));
        List<EntitySchedule> checked = checked(definition, desired);
        List<Change> changes = new ArrayList<>(writers.each(
                checked,
                schedule -> new Change(schedule.entity(), dryRun ? planned(definition, schedule) : applied(schedule)),
                progress));
        if (prune) {
            Set<String> kept = new HashSet<>();
            checked.forEach(s -> kept.add(s.name()));
            changes.addAll(writers.each(
                    absent(definition, kept),
                    entity -> {
                        if (!dryRun) {
                            pacer.acquire();
                            schedules.delete(job, entity);
                        }
                        return new Change(entity, Kind.DELETE);
                    },
                    progress));
        }
        return new ReconcileResult(job, dryRun, changes);
    }

    private static List<EntitySchedule> checked(JobDefinition definition, List<EntitySchedule> desired) {
        Set<String> seen = new HashSet<>();
        List<EntitySchedule> checked = new ArrayList<>();
        for (EntitySchedule s : desired) {
            if (!s.job().equals(definition.id())) {
                throw new EntityScheduleException(
                        "job",
                        "'" + s.job() + "' in a reconcile of " + definition.id() + "; accepted: " + definition.id());
            }
            if (!seen.add(s.entity())) {
                throw new EntityScheduleException(
                        "entity", "'" + s.entity() + "' appears twice; accepted: each entity once");
            }
            checked.add(EntitySchedule.of(
                    definition,
                    s.entity(),
                    s.schedule().expression().source(),
                    s.schedule().zone().getId(),
                    s.parameters()));
        }
        return checked;
    }

    private Kind applied(EntitySchedule schedule) {
        // One slot per put: a put writes at most once (an UNCHANGED one spends its slot on the read).
        pacer.acquire();
        return switch (schedules.put(schedule)) {
            case CREATED -> Kind.CREATE;
            case UPDATED -> Kind.UPDATE;
            case UNCHANGED -> Kind.UNCHANGED;
        };
    }

    private Kind planned(JobDefinition definition, EntitySchedule schedule) {
        Optional<GetScheduleResponse> current = schedules.read(schedule.name());
        if (current.isEmpty()) {
            return Kind.CREATE;
        }
        if (!ReadBack.isOf(current.get(), schedule.job(), schedule.entity())) {
            throw ReadBack.notOf(where(schedule.name()), current.get(), schedule.job(), schedule.entity());
        }
        DeployedForm form = DeployedForm.of(
                schedule, targets, targets.of(definition.id(), definition.pool().name()));
        return form.sameAs(current.get()) ? Kind.UNCHANGED : Kind.UPDATE;
    }

    /** This job's entities in the group not kept, read back so that only Punctual's schedules of this job count. */
    private List<String> absent(JobDefinition definition, Set<String> keptNames) {
        String prefix = definition.id() + ".";
        Set<String> entities = new TreeSet<>();
        try {
            for (ScheduleSummary summary : scheduler
                    .listSchedulesPaginator(r -> r.groupName(targets.group()).namePrefix(prefix))
                    .schedules()) {
                if (keptNames.contains(summary.name())) {
                    continue;
                }
                schedules
                        .read(summary.name())
                        .map(current -> ReadBack.listed(current, definition, summary.name(), where(summary.name())))
                        .filter(s -> EntityScheduleName.of(definition.id(), s.entity())
                                .equals(summary.name()))
                        .ifPresent(s -> entities.add(s.entity()));
            }
        } catch (SdkException e) {
            throw new SchedulerCallException("ListSchedules", where(prefix + "*"), e);
        }
        return List.copyOf(entities);
    }

    private String where(String name) {
        return targets.group() + "/" + name;
    }
}
