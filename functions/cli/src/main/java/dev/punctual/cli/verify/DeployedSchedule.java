package dev.punctual.cli.verify;

import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;
import software.amazon.awssdk.services.scheduler.model.Target;

/**
 * A schedule as EventBridge Scheduler holds it (GetSchedule), reduced to what verify compares.
 *
 * @param retryAttempts null when the target has no retry policy
 * @param maxEventAgeSeconds null when the target has no retry policy
 * @param deadLetterArn null when the target has no dead-letter queue
 */
public record DeployedSchedule(
        String name,
        String expression,
        String zone,
        String state,
        Integer retryAttempts,
        Integer maxEventAgeSeconds,
        String deadLetterArn,
        String input,
        String targetArn) {

    public static DeployedSchedule of(GetScheduleResponse s) {
        Target t = s.target();
        return new DeployedSchedule(
                s.name(),
                s.scheduleExpression(),
                s.scheduleExpressionTimezone(),
                s.stateAsString(),
                t.retryPolicy() == null ? null : t.retryPolicy().maximumRetryAttempts(),
                t.retryPolicy() == null ? null : t.retryPolicy().maximumEventAgeInSeconds(),
                t.deadLetterConfig() == null ? null : t.deadLetterConfig().arn(),
                t.input(),
                t.arn());
    }
}
