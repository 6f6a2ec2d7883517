package dev.punctual.stage;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The safety switches of one stage, as the runtime sees them. The CDK app writes them into each
 * function's environment ({@link #toEnvironment()}); the handler reads them back
 * ({@link #fromEnvironment(Map)}), so both sides agree on names and defaults.
 *
 * @param stage the stage name, e.g. {@code dev}
 * @param schedulesEnabled whether the stage's schedules fire (the kill switch)
 * @param externalDeliveryEnabled whether jobs may really send push or mail; when off, the delivery
 *     port records what it would have sent. Database writes are real either way.
 * @param destructiveEnabled whether jobs flagged destructive may run; when off they record a SKIP
 *     with reason {@code DESTRUCTIVE_DISABLED} before starting
 * @param lockWait how long a job waits for its busy lock group before recording SKIP {@code LOCK_BUSY}
 */
public record StageFlags(
        String stage,
        boolean schedulesEnabled,
        boolean externalDeliveryEnabled,
        boolean destructiveEnabled,
        Duration lockWait) {

    public static final String STAGE = "PUNCTUAL_STAGE";
    public static final String SCHEDULES_ENABLED = "PUNCTUAL_SCHEDULES_ENABLED";
    public static final String EXTERNAL_DELIVERY_ENABLED = "PUNCTUAL_EXTERNAL_DELIVERY_ENABLED";
    public static final String DESTRUCTIVE_ENABLED = "PUNCTUAL_DESTRUCTIVE_ENABLED";
    public static final String LOCK_WAIT_MS = "PUNCTUAL_LOCK_WAIT_MS";

    /** A few seconds: long enough to ride out a neighbour's completion, short against a Lambda timeout. */
    public static final Duration DEFAULT_LOCK_WAIT = Duration.ofSeconds(5);

    private static final Duration MAX_LOCK_WAIT = Duration.ofMinutes(5);
    private static final String STAGE_NAME = "[a-z][a-z0-9-]{0,19}";

    public StageFlags {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(lockWait, "lockWait");
        if (!stage.matches(STAGE_NAME)) {
            throw new StageConfigException(
                    "stage",
                    stage,
                    "lower-case letters, digits and '-', starting with a letter, at most 20 characters");
        }
        if (lockWait.isNegative() || lockWait.compareTo(MAX_LOCK_WAIT) > 0) {
            throw new StageConfigException("lockWait", lockWait.toString(), "between PT0S and " + MAX_LOCK_WAIT);
        }
    }

    /**
     * The safe defaults for a stage: schedules on, and external delivery and destructive jobs allowed
     * only in {@code prod}.
     */
    public static StageFlags defaultsFor(String stage) {
        boolean prod = "prod".equals(stage);
        return new StageFlags(stage, true, prod, prod, DEFAULT_LOCK_WAIT);
    }

    /** Reads the flags the CDK app wrote; a missing flag takes the stage's safe default. */
    public static StageFlags fromEnvironment(Map<String, String> env) {
        String stage = env.get(STAGE);
        if (stage == null || stage.isBlank()) {
            throw new StageConfigException(STAGE, String.valueOf(stage), "the stage name, e.g. dev or prod");
        }
        StageFlags defaults = defaultsFor(stage);
        return new StageFlags(
                stage,
                bool(env, SCHEDULES_ENABLED, defaults.schedulesEnabled()),
                bool(env, EXTERNAL_DELIVERY_ENABLED, defaults.externalDeliveryEnabled()),
                bool(env, DESTRUCTIVE_ENABLED, defaults.destructiveEnabled()),
                millis(env, LOCK_WAIT_MS, defaults.lockWait()));
    }

    /** The environment variables a function of this stage receives. */
    public Map<String, String> toEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(STAGE, stage);
        env.put(SCHEDULES_ENABLED, Boolean.toString(schedulesEnabled));
        env.put(EXTERNAL_DELIVERY_ENABLED, Boolean.toString(externalDeliveryEnabled));
        env.put(DESTRUCTIVE_ENABLED, Boolean.toString(destructiveEnabled));
        env.put(LOCK_WAIT_MS, Long.toString(lockWait.toMillis()));
        return env;
    }

    private static boolean bool(Map<String, String> env, String name, boolean fallback) {
        String value = env.get(name);
        if (value == null) {
            return fallback;
        }
        return switch (value.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new StageConfigException(name, value, "true or false");
        };
    }

    private static Duration millis(Map<String, String> env, String name, Duration fallback) {
        String value = env.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Duration.ofMillis(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            throw new StageConfigException(name, value, "a whole number of milliseconds, e.g. 5000");
        }
    }
}
