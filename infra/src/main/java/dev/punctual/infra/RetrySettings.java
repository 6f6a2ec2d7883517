package dev.punctual.infra;

import dev.punctual.stage.StageConfigException;
import java.time.Duration;

/**
 * The two retry layers between a schedule and a job, both set on purpose (CDK's defaults would let the
 * scheduler retry for 24 hours, 185 times).
 *
 * <p>EventBridge Scheduler retries delivering the event to Lambda's async queue, then puts it into the
 * schedule's dead-letter queue. Lambda then retries a function error (a crash or a timeout; job
 * failures are recorded, not thrown) and finally sends the event to the alias's on-failure destination.
 * A retried event carries the same scheduled time, so the ledger recognises it; the bounds keep a
 * retry from arriving after the next occurrence has long taken over.
 *
 * @param schedulerRetryAttempts 0 to 185
 * @param schedulerMaxEventAge 60 seconds to 24 hours
 * @param lambdaRetryAttempts 0 to 2
 * @param lambdaMaxEventAge 60 seconds to 6 hours
 */
public record RetrySettings(
        int schedulerRetryAttempts,
        Duration schedulerMaxEventAge,
        int lambdaRetryAttempts,
        Duration lambdaMaxEventAge) {

    public static final RetrySettings DEFAULT = new RetrySettings(3, Duration.ofHours(1), 2, Duration.ofHours(1));

    public RetrySettings {
        range("retries.schedulerRetryAttempts", schedulerRetryAttempts, 0, 185);
        range("retries.lambdaRetryAttempts", lambdaRetryAttempts, 0, 2);
        age("retries.schedulerMaxEventAge", schedulerMaxEventAge, Duration.ofHours(24));
        age("retries.lambdaMaxEventAge", lambdaMaxEventAge, Duration.ofHours(6));
    }

    private static void range(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new StageConfigException(field, Integer.toString(value), "a whole number from " + min + " to " + max);
        }
    }

    private static void age(String field, Duration value, Duration max) {
        if (value == null
                || value.compareTo(Duration.ofSeconds(60)) < 0
                || value.compareTo(max) > 0
                || value.getNano() != 0) {
            throw new StageConfigException(field, String.valueOf(value), "from PT1M to " + max + " in whole seconds");
        }
    }
}
