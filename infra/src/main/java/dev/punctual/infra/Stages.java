package dev.punctual.infra;

import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The stages Punctual knows. To add one, add an entry to {@link #ALL}: start from
 * {@link StageFlags#defaultsFor(String)} (delivery and destructive jobs off outside prod) and change
 * only what the stage needs. A stage may be pinned to its account and region here
 * ({@link StageConfig#pinnedTo}) or on the command line ({@code -c account=... -c region=...});
 * {@code prod} must be pinned one way or the other, since a deploy with whatever credentials happen
 * to be in the shell must not reach it.
 */
public final class Stages {

    private static final Map<String, StageConfig> ALL = new TreeMap<>(Map.of(
            "dev",
            stage(StageFlags.defaultsFor("dev"), 14, false),
            "prod",
            stage(new StageFlags("prod", true, true, true, Duration.ofSeconds(5)), 180, true)
                    .requiringPinnedAccount(true)));

    private Stages() {}

    private static StageConfig stage(StageFlags flags, int logRetentionDays, boolean retainData) {
        return new StageConfig(
                flags,
                logRetentionDays,
                new StageConfig.AlarmSettings(1, 5),
                RetrySettings.DEFAULT,
                retainData,
                "java25");
    }

    /** The named stage's config; an unknown name fails, listing the known ones. */
    public static StageConfig named(String name) {
        if (name == null || name.isBlank()) {
            throw new StageConfigException(
                    "stage", String.valueOf(name), "-c stage=NAME with NAME one of " + ALL.keySet());
        }
        StageConfig config = ALL.get(name);
        if (config == null) {
            throw new StageConfigException("stage", name, "one of " + ALL.keySet() + " (add a stage in Stages.java)");
        }
        return config;
    }

    public static Set<String> names() {
        return ALL.keySet();
    }

    /**
     * The clock-skew tolerance this build gives the stage's functions ({@code StageConfig.withSkewTolerance}),
     * or empty for a stage it does not define: what a run in the operator's JVM takes by default.
     */
    public static Optional<Duration> configuredSkewTolerance(String name) {
        return Optional.ofNullable(ALL.get(name)).map(StageConfig::skewTolerance);
    }

    /**
     * The default freshness bound this build gives the stage's jobs ({@code StageConfig.withFreshWithinPeriods},
     * decision 0042), or none for a stage it does not define: what {@code status} and {@code jobs} judge by.
     */
    public static dev.punctual.stage.StageFreshness configuredFreshness(String name) {
        return Optional.ofNullable(ALL.get(name))
                .map(StageConfig::freshness)
                .orElse(dev.punctual.stage.StageFreshness.NONE);
    }
}
