package dev.punctual.entity;

import dev.punctual.job.JobDefinition;
import dev.punctual.observability.VisibleText;
import dev.punctual.time.Schedule;
import dev.punctual.time.ScheduleExpressionException;
import dev.punctual.time.Spread;
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
 * @param offsetMinutes how many minutes after each nominal occurrence its schedule fires: 0 unless the
 *     job spreads its entities ({@code EntityJob.spreadOver}, decision 0030)
 */
public record EntitySchedule(
        String job, String entity, Schedule schedule, Map<String, Object> parameters, int offsetMinutes) {

    public EntitySchedule {
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        if (offsetMinutes < 0 || offsetMinutes >= Spread.LONGEST.toMinutes()) {
            throw new EntityScheduleException(
                    "offset_minutes",
                    offsetMinutes + " is out of range; accepted: 0 to 59 (a spread of at most an hour)");
        }
    }

    /** A schedule that fires at its nominal occurrences. */
    public EntitySchedule(String job, String entity, Schedule schedule, Map<String, Object> parameters) {
        this(job, entity, schedule, parameters, 0);
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
        if (!zone.equals(zone.strip())) {
            // Taken as written, never trimmed: a space is a sign of a column or a quote gone wrong.
            throw new EntityScheduleException(
                    "zone",
                    "\"" + VisibleText.escaped(zone) + "\" has white space around it; accepted: the zone id alone,"
                            + " e.g. \"" + VisibleText.escaped(zone.strip()) + "\"");
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
                job.id(),
                entity,
                schedule,
                EntityParameters.check(job.id(), job.perEntity(), parameters),
                offset(job, entity, schedule));
    }

    /**
     * The entity's offset: its stable place in the job's window (a hash of the job's and the entity's
     * ids), lowered to the largest offset the schedule shifts by exactly (an occurrence at :55 of a fixed
     * hour, or just before a daylight-saving change, has less room), so no firing is ever lost or made up.
     */
    private static int offset(JobDefinition job, String entity, Schedule schedule) {
        return job.perEntity()
                .spread()
                .map(spread -> schedule.largestExactOffset(spread.offsetMinutes(job.id(), entity)))
                .orElse(0);
    }

    /**
     * For a writer (the CLI's {@code schedules put} and {@code import}), not a delivery: refused naming
     * {@code schedule} when the schedule has no occurrence after {@code now}, an {@code at()} in the past or
     * an expression that never matches a date ({@code 0 9 30 2 *}), whose schedule would never run.
     *
     * @return this schedule
     */
    public EntitySchedule requireOccurrenceAfter(java.time.Instant now) {
        if (dev.punctual.time.OccurrenceCalculator.of(schedule).next(now).isEmpty()) {
            throw new EntityScheduleException(
                    "schedule",
                    "'" + VisibleText.escaped(schedule.expression().source()) + "' in "
                            + schedule.zone().getId()
                            + " has no occurrence after now (" + now + "), so it would never run; accepted: an"
                            + " expression with an occurrence to come (an at() in the future)");
        }
        return this;
    }

    /** The same schedule at another offset: one read back as it is deployed. */
    public EntitySchedule withOffset(int minutes) {
        return new EntitySchedule(job, entity, schedule, parameters, minutes);
    }

    /**
     * What EventBridge Scheduler is given: the schedule's deployment shifted by the offset, so every
     * firing is a nominal occurrence plus {@link #offsetMinutes()} ({@link Schedule#deployment(int)}).
     */
    public Schedule.Deployment deployment() {
        return schedule.deployment(offsetMinutes);
    }

    /** The nominal occurrence a firing of this schedule stands for: the firing minus the offset. */
    public java.time.Instant nominal(java.time.Instant fired) {
        return fired.minusSeconds(60L * offsetMinutes);
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
