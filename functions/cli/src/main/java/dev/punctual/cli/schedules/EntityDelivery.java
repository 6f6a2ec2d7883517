package dev.punctual.cli.schedules;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.StageTarget;
import dev.punctual.entities.EntitySchedules;
import dev.punctual.entity.EntityIds;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.time.Schedule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The entity a {@code run} or {@code replay} of a per-entity job is for, with the schedule it has in the
 * stage's entity group (docs/entities.md). Its payload carries the same entity fields as the entity's
 * live delivery ({@link ScheduledPayload#forEntity}), so the function checks them by the same rules and
 * runs the occurrences of the entity's own expression and zone, under the ledger id {@code job:entity}.
 */
public record EntityDelivery(EntitySchedule schedule) {

    /** The fields of {@link ScheduledPayload#forEntity} that say who and when; the rest are the scheduler's. */
    private static final List<String> FIELDS = List.of(
            ScheduledPayload.ENTITY, ScheduledPayload.SCHEDULE, ScheduledPayload.ZONE, ScheduledPayload.PARAMETERS);

    /**
     * What {@code --entity} asks for, checked before anything connects: empty for a job of one schedule
     * without {@code --entity} (and for a job the catalog lacks, which the run refuses on its own);
     * refused naming {@code --entity} when given for a job of one schedule, missing for a per-entity job,
     * or not an entity id.
     *
     * @return the per-entity job and the entity id, when the run is for an entity
     */
    public static Optional<Map.Entry<JobDefinition, String>> asked(
            JobCatalog catalog, String job, Optional<String> entity) {
        return asked(catalog, job, entity, true);
    }

    /**
     * {@link #asked(JobCatalog, String, Optional)}, where a per-entity job without {@code --entity} is
     * refused only when {@code required} (a run needs its entity; a status shows the job's group instead).
     */
    public static Optional<Map.Entry<JobDefinition, String>> asked(
            JobCatalog catalog, String job, Optional<String> entity, boolean required) {
        Optional<JobDefinition> definition = catalog.find(job);
        if (definition.isEmpty()) {
            return Optional.empty();
        }
        if (!definition.get().isPerEntity()) {
            if (entity.isPresent()) {
                throw new OperatorInputException("--entity: job '" + job + "' has one schedule of its own, not one"
                        + " per entity; accepted: --entity only with a per-entity job ("
                        + perEntityJobs(catalog) + ")");
            }
            return Optional.empty();
        }
        if (entity.isEmpty() && !required) {
            return Optional.empty();
        }
        if (entity.isEmpty()) {
            throw new OperatorInputException("--entity: required, job '" + job + "' runs per entity (under the"
                    + " ledger id " + job + ":ENTITY); accepted: --entity ENTITY, an entity with a schedule"
                    + " (punctual schedules list " + job + " --stage STAGE lists them)");
        }
        return Optional.of(Map.entry(definition.get(), entityId(entity.get())));
    }

    /** The {@code --entity} value, checked by the entity id rule ({@link EntityIds#require}), the one check. */
    public static String entityId(String given) {
        try {
            return EntityIds.require(given);
        } catch (EntityScheduleException e) {
            throw new OperatorInputException(
                    "--entity: " + e.getMessage().substring(e.field().length() + 2));
        }
    }

    /**
     * The entity's delivery: its schedule as the stage's entity group holds it, read with
     * {@link EntitySchedules#get}; an entity without one is refused naming {@code --entity}, the job and
     * how to create it.
     *
     * @param read the entity's schedule, as {@link EntitySchedules#get} read it
     * @param group the entity group read, for the refusal
     * @param where how the refusal names the stage: {@code --stage NAME} or {@code --endpoint URL}
     */
    static EntityDelivery of(
            JobDefinition job, String entity, Optional<EntitySchedule> read, String group, String where) {
        return read.map(EntityDelivery::new)
                .orElseThrow(() -> new OperatorInputException("--entity: entity '" + entity + "' of job '" + job.id()
                        + "' has no schedule (" + EntityScheduleName.of(job.id(), entity) + " is not in group "
                        + group + "); accepted: an entity with a schedule (punctual schedules put " + job.id() + " "
                        + entity + " --zone ZONE " + where + " creates one; schedules list shows them)"));
    }

    /**
     * The entity's schedule as the stage's entity group holds it ({@link EntitySchedules#get}): a deployed
     * stage's, with the group read from its outputs, or an emulator's ({@code --endpoint}, {@link
     * EntityAccess}); empty when it has none.
     *
     * @return the schedule if any, and the group's name
     */
    public static Map.Entry<Optional<EntitySchedule>, String> read(
            CliContext context, StageTarget where, JobCatalog catalog, String job, String entity) {
        // A get reads the schedule only; the client is built as every other, its tombstones never written.
        try (EntityAccess access = EntityAccess.open(context, where, Optional.empty(), catalog, false)) {
            EntitySchedules schedules = access.schedules(catalog, SchedulesCommand.operator());
            return Map.entry(schedules.get(job, entity), schedules.group());
        }
    }

    /**
     * {@link #read} then {@link #of}: the entity's delivery, or refused naming {@code --entity} when it has no
     * schedule.
     */
    public static EntityDelivery read(
            CliContext context, StageTarget where, JobCatalog catalog, JobDefinition job, String entity) {
        Map.Entry<Optional<EntitySchedule>, String> read = read(context, where, catalog, job.id(), entity);
        return of(job, entity, read.getKey(), read.getValue(), EntityAccess.where(where));
    }

    /** The payload's entity fields, as the entity's live delivery carries them. */
    public Map<String, Object> fields() {
        Map<String, Object> delivery = ScheduledPayload.forEntity(schedule);
        Map<String, Object> fields = new LinkedHashMap<>();
        for (String field : FIELDS) {
            if (delivery.containsKey(field)) {
                fields.put(field, delivery.get(field));
            }
        }
        return fields;
    }

    /** The entity's own schedule: whose occurrences a replay counts and continues from. */
    public Schedule occurrences() {
        return schedule.schedule();
    }

    /** The ledger id the entity's cursor, lease and runs are kept under. */
    public String ledgerId() {
        return EntityIds.ledgerId(schedule.job(), schedule.entity());
    }

    static String perEntityJobs(JobCatalog catalog) {
        List<String> ids = catalog.jobs().stream()
                .filter(JobDefinition::isPerEntity)
                .map(JobDefinition::id)
                .toList();
        return ids.isEmpty() ? "the catalog has none" : String.join(", ", ids);
    }
}
