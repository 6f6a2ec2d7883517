package dev.punctual.entities;

import dev.punctual.entity.EntityIds;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobDefinition;
import dev.punctual.observability.VisibleText;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.time.Schedule;
import dev.punctual.time.ScheduleExpressionException;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;

/**
 * A schedule read back from the group, as the entity schedule it stands for: its input parsed and
 * checked by {@link EntitySchedule#of} with the catalog's definition, the one way every entry point
 * checks one, so a schedule edited by hand into something Punctual would refuse is reported, never
 * returned as if it were fine.
 */
final class ReadBack {

    private static final String INPUT = "Target.Input";

    private static final String ACCEPTED_INPUT = "the input a put writes: a JSON object with kind 'scheduled', the"
            + " job, the entity, its schedule and zone, and its parameters if any";

    private ReadBack() {}

    /** Whether its input says it is the job's schedule for the entity: only then may a put replace it. */
    static boolean isOf(GetScheduleResponse current, String job, String entity) {
        return input(current)
                .filter(in -> ScheduledPayload.KIND_SCHEDULED.equals(in.get(ScheduledPayload.KIND))
                        && job.equals(in.get(ScheduledPayload.JOB))
                        && entity.equals(in.get(ScheduledPayload.ENTITY)))
                .isPresent();
    }

    /** The refusal of a put onto a schedule of that name that is not the job's for the entity. */
    static UnreadableScheduleException notOf(String where, GetScheduleResponse current, String job, String entity) {
        return new UnreadableScheduleException(
                where,
                INPUT,
                input(current)
                                .map(in -> "names kind " + shown(in.get(ScheduledPayload.KIND)) + ", job "
                                        + shown(in.get(ScheduledPayload.JOB)) + " and entity "
                                        + shown(in.get(ScheduledPayload.ENTITY)))
                                .orElse("is not a JSON object")
                        + ", so it is not Punctual's schedule of " + job + " for " + entity + " and is left as it"
                        + " is; accepted: " + ACCEPTED_INPUT + " (delete the schedule, then put again)");
    }

    /**
     * The entity schedule it stands for, or a refusal naming the schedule and its bad field.
     *
     * @param where {@code group/name}, for the message
     */
    static EntitySchedule entitySchedule(
            GetScheduleResponse current, JobDefinition definition, String entity, String where) {
        if (!isOf(current, definition.id(), entity)) {
            throw notOf(where, current, definition.id(), entity);
        }
        Map<?, ?> in = input(current).orElseThrow();
        String expression = text(in, ScheduledPayload.SCHEDULE, where);
        String zone = text(in, ScheduledPayload.ZONE, where);
        Object parameters = in.get(ScheduledPayload.PARAMETERS);
        if (parameters != null && !(parameters instanceof Map)) {
            throw new UnreadableScheduleException(
                    where,
                    INPUT + "." + ScheduledPayload.PARAMETERS,
                    "is not a JSON object; accepted: an object of the job's declared keys, or no field");
        }
        EntitySchedule schedule;
        try {
            schedule = EntitySchedule.of(definition, entity, expression, zone, stringKeyed((Map<?, ?>) parameters));
        } catch (EntityScheduleException e) {
            throw new UnreadableScheduleException(
                    where,
                    INPUT + "." + e.field(),
                    e.getMessage().substring(e.field().length() + 2));
        }
        // As deployed: the offset its input carries, which is the one it fires at, even if the job's
        // window changed since (the next put redeploys it at the new one).
        schedule = schedule.withOffset(offsetMinutes(in, where));
        requireDeployedAsItsInput(current, schedule, where);
        return schedule;
    }

    /**
     * A schedule found by listing: its entity is the one its input names, provided the name of that
     * entity's schedule is the name it was found under (an input copied onto another name is not it).
     */
    static EntitySchedule listed(GetScheduleResponse current, JobDefinition definition, String name, String where) {
        Object entity =
                input(current).map(in -> in.get(ScheduledPayload.ENTITY)).orElse(null);
        if (!(entity instanceof String id)
                || !EntityIds.valid(id)
                || !EntityScheduleName.of(definition.id(), id).equals(name)) {
            throw new UnreadableScheduleException(
                    where,
                    INPUT + "." + ScheduledPayload.ENTITY,
                    shown(entity) + " is not the entity this schedule's name stands for; accepted: an entity id"
                            + " whose schedule name is " + name + " (" + EntityIds.ACCEPTED + ")");
        }
        return entitySchedule(current, definition, id, where);
    }

    /**
     * The expression that fires must be the one its input names: the runtime reads the occurrence's
     * rules from the input, so a schedule whose expression was edited alone would fire at times its
     * deliveries do not describe.
     */
    private static void requireDeployedAsItsInput(GetScheduleResponse current, EntitySchedule schedule, String where) {
        Schedule.Deployment deployment;
        try {
            deployment = schedule.deployment();
        } catch (ScheduleExpressionException e) {
            // An offset edited by hand into one the expression cannot shift by exactly names its own field.
            String field = e.part().equals(ScheduledPayload.OFFSET_MINUTES)
                    ? ScheduledPayload.OFFSET_MINUTES
                    : ScheduledPayload.SCHEDULE;
            throw new UnreadableScheduleException(where, INPUT + "." + field, e.getMessage());
        }
        if (!deployment.expression().equals(current.scheduleExpression())
                || !deployment.zone().getId().equals(current.scheduleExpressionTimezone())) {
            throw new UnreadableScheduleException(
                    where,
                    "ScheduleExpression",
                    shown(current.scheduleExpression()) + " in " + shown(current.scheduleExpressionTimezone())
                            + " is not what its input's schedule deploys as; accepted: '" + deployment.expression()
                            + "' in " + deployment.zone().getId() + " (a put of the entity's schedule rewrites it)");
        }
    }

    private static int offsetMinutes(Map<?, ?> in, String where) {
        Object node = in.get(ScheduledPayload.OFFSET_MINUTES);
        if (node == null) {
            return 0;
        }
        if (!(node instanceof Long value) || value < 0 || value > 59) {
            throw new UnreadableScheduleException(
                    where,
                    INPUT + "." + ScheduledPayload.OFFSET_MINUTES,
                    "is " + shown(node) + "; accepted: a whole number of minutes from 0 to 59, or no field");
        }
        return value.intValue();
    }

    private static String text(Map<?, ?> in, String field, String where) {
        if (!(in.get(field) instanceof String value)) {
            throw new UnreadableScheduleException(
                    where, INPUT + "." + field, "is " + shown(in.get(field)) + "; accepted: " + ACCEPTED_INPUT);
        }
        return value;
    }

    private static Map<String, Object> stringKeyed(Map<?, ?> parameters) {
        if (parameters == null) {
            return Map.of();
        }
        Map<String, Object> keyed = new java.util.LinkedHashMap<>();
        // Json.read gives string keys; the copy only says so to the compiler.
        parameters.forEach((key, value) -> keyed.put(String.valueOf(key), value));
        return keyed;
    }

    private static Optional<Map<?, ?>> input(GetScheduleResponse current) {
        if (current.target() == null) {
            return Optional.empty();
        }
        return DeployedForm.parsed(current.target().input())
                .filter(Map.class::isInstance)
                .map(value -> (Map<?, ?>) value);
    }

    private static String shown(Object value) {
        if (value == null) {
            return "(none)";
        }
        String text = value instanceof String s ? "'" + s + "'" : dev.punctual.json.Json.write(value);
        return VisibleText.escaped(text.length() > 80 ? text.substring(0, 80) + "…" : text);
    }
}
