package dev.punctual.entity;

import dev.punctual.job.JobDefinition;
import dev.punctual.time.Schedule;
import dev.punctual.time.ScheduleExpressionException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One entity's schedule of one per-entity job, as it should be: what a put asks for, checked before
 * anything is written. The zone is always the entity's own (there is no default zone); the expression is
 * the job's when the put names none.
 *
 * @param job the per-entity job's id
 * @param entity the entity's id ({@link EntityIds})
 * @param schedule expression and zone, in any dialect the catalog accepts, {@code at()} included
 * @param parameters only keys the job declares ({@link EntityParameters})
 */
public record EntitySchedule(String job, String entity, Schedule schedule, Map<String, Object> parameters) {

    public EntitySchedule {
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }

    /**
     * The schedule a put asks for, or a refusal naming the first bad field.
     *
     * @param expression the entity's expression, or null for the job's own
     * @param zone the entity's IANA zone: required
     */
    public static EntitySchedule of(
            JobDefinition job, String entity, String expression, String zone, Map<String, ?> parameters) {
        if (!job.isPerEntity()) {
            throw new EntityScheduleException(
                    "job",
                    "'" + job.id() + "' has one schedule of its own, not one per entity; accepted: a job declared"
                            + " with perEntity(...)");
        }
        EntityIds.require(entity);
        if (zone == null || zone.isBlank()) {
            throw new EntityScheduleException(
                    "zone",
                    "required; accepted: the entity's IANA zone, e.g. Europe/Paris or UTC (there is no default)");
        }
        Schedule schedule = parsed(job, expression, zone);
        try {
            // What EventBridge Scheduler is given: a rate() no cron can express cannot be an entity's either.
            schedule.deployment();
        } catch (ScheduleExpressionException e) {
            throw new EntityScheduleException("schedule", e.getMessage());
        }
        Optional<Duration> period = schedule.longestPeriod();
        if (period.isPresent() && !job.catchUp().reachesBackOne(period.get())) {
            // The same rule as the catalog's: a catch-up that cannot reach back one period replays nothing.
            throw new EntityScheduleException(
                    "schedule",
                    "'" + schedule.expression().source() + "' has " + period.get() + " between occurrences, longer than"
                            + " the job's catch-up (" + job.catchUp().describe() + ") reaches back, so nothing it"
                            + " missed could ever be caught up; accepted: an expression at most that far apart, or a"
                            + " job whose catchUp reaches further");
        }
        return new EntitySchedule(
                job.id(), entity, schedule, EntityParameters.check(job.id(), job.perEntity(), parameters));
    }

    private static Schedule parsed(JobDefinition job, String expression, String zone) {
        String text = expression == null ? job.schedule().expression().source() : expression;
        try {
            return Schedule.parse(text, zone);
        } catch (ScheduleExpressionException e) {
            if (e.part().equals("time-zone")) {
                throw new EntityScheduleException(
                        "zone", e.getMessage().substring(e.part().length() + 2));
            }
            throw new EntityScheduleException("schedule", e.getMessage());
        }
    }

    /** The schedule's name in the stage's entity group ({@link EntityScheduleName}). */
    public String name() {
        return EntityScheduleName.of(job, entity);
    }

    /** The id its run items, cursor and (unless the job shares one lock) lease are kept under. */
    public String ledgerId() {
        return EntityIds.ledgerId(job, entity);
    }
}
