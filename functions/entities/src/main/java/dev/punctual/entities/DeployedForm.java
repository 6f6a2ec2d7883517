package dev.punctual.entities;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.json.Json;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.time.AtExpression;
import dev.punctual.time.Schedule;
import dev.punctual.time.ScheduleExpressionException;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.scheduler.model.ActionAfterCompletion;
import software.amazon.awssdk.services.scheduler.model.CreateScheduleRequest;
import software.amazon.awssdk.services.scheduler.model.DeadLetterConfig;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindow;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;
import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;
import software.amazon.awssdk.services.scheduler.model.RetryPolicy;
import software.amazon.awssdk.services.scheduler.model.ScheduleState;
import software.amazon.awssdk.services.scheduler.model.Target;
import software.amazon.awssdk.services.scheduler.model.UpdateScheduleRequest;

/**
 * An entity's schedule as EventBridge Scheduler is given it: the one place its deployed form is decided,
 * and the one place a schedule read back is compared with it. "Equal" is what Punctual owns: expression
 * and zone (as deployed, {@link Schedule#deployment()}), target, role, input (as JSON, not text),
 * state, time window, retries, dead-letter queue and what the scheduler does after the schedule's last
 * delivery ({@link #afterCompletion}). The description is written but not compared (a
 * reworded description must not rewrite every entity's schedule); fields Punctual never sets (start
 * and end dates, a KMS key) are not compared either, and an update, a full replacement, clears them.
 */
record DeployedForm(
        String expression,
        String zone,
        String description,
        Target target,
        Object parsedInput,
        ActionAfterCompletion afterCompletion) {

    /** The API's limit on a description. */
    static final int MAX_DESCRIPTION = 512;

    /** Deliveries at their scheduled time: the scheduled time is the run's key, a window would blur it. */
    private static final FlexibleTimeWindow OFF =
            FlexibleTimeWindow.builder().mode(FlexibleTimeWindowMode.OFF).build();

    static DeployedForm of(EntitySchedule schedule, EntityTargets targets, EntityTargets.PoolTarget pool) {
        Schedule.Deployment deployment = deployment(schedule);
        String input = Json.write(ScheduledPayload.forEntity(schedule));
        Target.Builder target = Target.builder()
                .arn(pool.functionArn())
                .roleArn(pool.roleArn())
                .input(input)
                .retryPolicy(RetryPolicy.builder()
                        .maximumRetryAttempts(targets.retryAttempts())
                        .maximumEventAgeInSeconds(targets.maximumEventAgeSeconds())
                        .build());
        targets.deadLetterQueue()
                .ifPresent(arn -> target.deadLetterConfig(
                        DeadLetterConfig.builder().arn(arn).build()));
        return new DeployedForm(
                deployment.expression(),
                deployment.zone().getId(),
                description(schedule),
                target.build(),
                parsed(input).orElseThrow(),
                afterCompletion(schedule));
    }

    /**
     * DELETE for a one-time {@code at()} schedule, NONE for every other (decision 0043). A finished {@code at()}
     * would otherwise stay in the entity group forever (aws-cdk #27455), counted against the account's
     * schedule quota and listed by every {@code list}; the scheduler deletes it after its one delivery
     * (after the last retry when the deliveries failed). A recurring schedule has no end date here, so it
     * never completes: NONE is sent explicitly rather than left unset, so that an update from an
     * {@code at()} to a cron replaces DELETE instead of relying on UpdateSchedule's default for an absent field.
     * A spread {@code at()} (decision 0030) is still one delivery: DELETE.
     */
    static ActionAfterCompletion afterCompletion(EntitySchedule schedule) {
        return schedule.schedule().expression() instanceof AtExpression
                ? ActionAfterCompletion.DELETE
                : ActionAfterCompletion.NONE;
    }

    /**
     * The expression EventBridge fires on: the schedule's, shifted by its spread offset when its job
     * spreads its entities (decision 0030), in the same zone. A {@code rate()} no cron can express passes {@code
     * EntitySchedule.of} (it runs fine in the runtime's calculator) but cannot be deployed on Punctual's
     * anchor; it is refused here, naming {@code schedule}, before anything is written.
     */
    private static Schedule.Deployment deployment(EntitySchedule schedule) {
        try {
            return schedule.deployment();
        } catch (ScheduleExpressionException e) {
            throw new EntityScheduleException("schedule", e.getMessage());
        }
    }

    static String description(EntitySchedule schedule) {
        String text = "Punctual entity schedule: " + schedule.job() + " for " + schedule.entity();
        return text.length() <= MAX_DESCRIPTION ? text : text.substring(0, MAX_DESCRIPTION - 3) + "...";
    }

    /** Whether the schedule read back is this one, in everything Punctual owns. */
    boolean sameAs(GetScheduleResponse current) {
        Target actual = current.target();
        return expression.equals(current.scheduleExpression())
                && zone.equals(current.scheduleExpressionTimezone())
                && current.state() == ScheduleState.ENABLED
                && current.flexibleTimeWindow() != null
                && current.flexibleTimeWindow().mode() == FlexibleTimeWindowMode.OFF
                && actual != null
                && target.arn().equals(actual.arn())
                && target.roleArn().equals(actual.roleArn())
                && Objects.equals(target.retryPolicy(), actual.retryPolicy())
                && Objects.equals(deadLetterArn(target), deadLetterArn(actual))
                && afterCompletion == readAfterCompletion(current)
                && parsed(actual.input()).filter(parsedInput::equals).isPresent();
    }

    CreateScheduleRequest createRequest(String group, String name) {
        return CreateScheduleRequest.builder()
                .groupName(group)
                .name(name)
                .description(description)
                .scheduleExpression(expression)
                .scheduleExpressionTimezone(zone)
                .state(ScheduleState.ENABLED)
                .flexibleTimeWindow(OFF)
                .target(target)
                .actionAfterCompletion(afterCompletion)
                .build();
    }

    /** The same fields as a create: UpdateSchedule replaces the whole schedule, it merges nothing. */
    UpdateScheduleRequest updateRequest(String group, String name) {
        return UpdateScheduleRequest.builder()
                .groupName(group)
                .name(name)
                .description(description)
                .scheduleExpression(expression)
                .scheduleExpressionTimezone(zone)
                .state(ScheduleState.ENABLED)
                .flexibleTimeWindow(OFF)
                .target(target)
                .actionAfterCompletion(afterCompletion)
                .build();
    }

    /**
     * What the schedule read back does after completion: absent is NONE (a schedule created before
     * decision 0043, or by an API that omits the field), so an {@code at()} created before it is UPDATED
     * to DELETE by its next put, and a recurring one stays UNCHANGED.
     */
    static ActionAfterCompletion readAfterCompletion(GetScheduleResponse current) {
        return current.actionAfterCompletion() == null ? ActionAfterCompletion.NONE : current.actionAfterCompletion();
    }

    private static String deadLetterArn(Target target) {
        return target.deadLetterConfig() == null
                ? null
                : target.deadLetterConfig().arn();
    }

    /** The input as JSON values, so key order and spacing never make two equal inputs differ. */
    static Optional<Object> parsed(String input) {
        if (input == null) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(Json.read(input));
        } catch (Json.NotJsonException e) {
            return Optional.empty();
        }
    }
}
