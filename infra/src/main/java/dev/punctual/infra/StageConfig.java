package dev.punctual.infra;

import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageFreshness;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Everything that differs between two stages of Punctual, validated when it is built so that a bad
 * value fails {@code cdk synth} with a message naming the field rather than producing a broken stack.
 *
 * @param flags the runtime's safety switches, written into every function's environment
 * @param logRetentionDays how long the functions' log groups keep events (a CloudWatch-accepted value)
 * @param alarms thresholds of the stage's alarms
 * @param retries the two retry layers between a schedule and a job (see {@link RetrySettings})
 * @param retainData whether the ledger and domain tables survive a stack deletion (deletion protection
 *     and removal policy RETAIN); on in prod
 * @param lambdaRuntime the Lambda Java runtime, {@code java21} or {@code java25}
 * @param environment the account and region the stage is pinned to, if any
 * @param requirePinnedAccount whether synth refuses the stage without a pinned account (prod: a deploy
 *     with whatever credentials happen to be in the shell must not reach it)
 * @param reservedConcurrency concurrent executions reserved for each named function pool; a pool not
 *     named shares the account's unreserved concurrency (see docs/deploy.md)
 * @param skewTolerance how far the functions' clocks may disagree, 0 to 60 s (default 2 s): a lease
 *     ends this long after its holder's deadline, so a larger value also delays every takeover after a
 *     crash by as much (docs/ledger.md, "Clock-skew tolerance"); written into every function's
 *     environment ({@link SkewTolerance#ENV})
 * @param freshness the default freshness bound of the stage's jobs, in periods of each job's schedule
 *     (decision 0042; none unless set): written into every function's environment ({@link StageFreshness#ENV})
 *     when set, and the stage then has the {@code StaleJobs} alarm; a job's own {@code freshWithin} wins
 */
public record StageConfig(
        StageFlags flags,
        int logRetentionDays,
        AlarmSettings alarms,
        RetrySettings retries,
        boolean retainData,
        String lambdaRuntime,
        StageEnvironment environment,
        boolean requirePinnedAccount,
        Map<String, Integer> reservedConcurrency,
        Duration skewTolerance,
        StageFreshness freshness) {

    /** The retention values CloudWatch Logs accepts, in days. */
    public static final List<Integer> ACCEPTED_RETENTION_DAYS = List.of(
            1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653);

    public static final Set<String> ACCEPTED_RUNTIMES = Set.of("java21", "java25");

    public StageConfig {
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(alarms, "alarms");
        Objects.requireNonNull(retries, "retries");
        Objects.requireNonNull(lambdaRuntime, "lambdaRuntime");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(freshness, "freshness");
        new SkewTolerance(skewTolerance); // refused outside 0..60 s, naming skewTolerance and the range
        reservedConcurrency = Collections.unmodifiableSortedMap(new TreeMap<>(reservedConcurrency));
        reservedConcurrency.forEach((pool, count) -> {
            if (count < 1 || count > MAX_RESERVED_CONCURRENCY) {
                throw new StageConfigException(
                        "reservedConcurrency." + pool,
                        Integer.toString(count),
                        "a whole number from 1 to " + MAX_RESERVED_CONCURRENCY);
            }
        });
        int total = reservedConcurrency.values().stream()
                .mapToInt(Integer::intValue)
                .sum();
        if (total > MAX_RESERVED_CONCURRENCY) {
            throw new StageConfigException(
                    "reservedConcurrency",
                    reservedConcurrency.toString(),
                    "at most " + MAX_RESERVED_CONCURRENCY + " in total (Lambda keeps 100 of the default 1,000"
                            + " unreserved; ask for a higher concurrency quota first)");
        }
        if (!ACCEPTED_RETENTION_DAYS.contains(logRetentionDays)) {
            throw new StageConfigException(
                    "logRetentionDays", Integer.toString(logRetentionDays), "one of " + ACCEPTED_RETENTION_DAYS);
        }
        if (!ACCEPTED_RUNTIMES.contains(lambdaRuntime)) {
            throw new StageConfigException("lambdaRuntime", lambdaRuntime, "java21 or java25");
        }
    }

    /**
     * Lambda's default account limit (1,000) less the 100 it always keeps unreserved: the most all pools
     * of a stage may reserve together without a quota increase. A reservation of 0 would stop the pool
     * (the kill switch is {@code -c schedules=off} instead).
     */
    public static final int MAX_RESERVED_CONCURRENCY = 900;

    /** Without a default freshness bound (the form before decision 0042). */
    public StageConfig(
            StageFlags flags,
            int logRetentionDays,
            AlarmSettings alarms,
            RetrySettings retries,
            boolean retainData,
            String lambdaRuntime,
            StageEnvironment environment,
            boolean requirePinnedAccount,
            Map<String, Integer> reservedConcurrency,
            Duration skewTolerance) {
        this(
                flags,
                logRetentionDays,
                alarms,
                retries,
                retainData,
                lambdaRuntime,
                environment,
                requirePinnedAccount,
                reservedConcurrency,
                skewTolerance,
                StageFreshness.NONE);
    }

    /** A stage that is not pinned to an account and reserves no concurrency. */
    public StageConfig(
            StageFlags flags,
            int logRetentionDays,
            AlarmSettings alarms,
            RetrySettings retries,
            boolean retainData,
            String lambdaRuntime) {
        this(
                flags,
                logRetentionDays,
                alarms,
                retries,
                retainData,
                lambdaRuntime,
                StageEnvironment.UNPINNED,
                false,
                Map.of(),
                SkewTolerance.DEFAULT_VALUE);
    }

    public String stage() {
        return flags.stage();
    }

    /** The same stage pinned to the given account and region (each null keeps the current one). */
    public StageConfig pinnedTo(String account, String region) {
        return with(b -> b.environment = environment.overriddenBy(account, region));
    }

    /** The same stage with synth refusing it unless its account is pinned. */
    public StageConfig requiringPinnedAccount(boolean required) {
        return with(b -> b.requirePinnedAccount = required);
    }

    /** The same stage reserving {@code count} concurrent executions for the pool. */
    public StageConfig reservingConcurrency(String pool, int count) {
        return with(b -> b.reservedConcurrency.put(pool, count));
    }

    /** The same stage with another clock-skew tolerance (0 to 60 s). */
    public StageConfig withSkewTolerance(Duration tolerance) {
        return with(b -> b.skewTolerance = tolerance);
    }

    /**
     * The same stage holding each job without a {@code freshWithin} of its own to {@code periods} periods of
     * its schedule plus an hour (decision 0042); 0 for none, at most 30.
     */
    public StageConfig withFreshWithinPeriods(int periods) {
        return with(b -> b.freshness = new StageFreshness(periods));
    }

    /** The same stage with its schedules switched on or off (the kill switch, {@code -c schedules=off}). */
    public StageConfig withSchedulesEnabled(boolean enabled) {
        return with(b -> b.flags = new StageFlags(
                flags.stage(), enabled, flags.externalDeliveryEnabled(), flags.destructiveEnabled(), flags.lockWait()));
    }

    /** A copy with one change, validated again like any new config. */
    private StageConfig with(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The mutable copy behind {@link #with}: every field once, so a new field is added in one place. */
    private static final class Copy {
        private StageFlags flags;
        private final int logRetentionDays;
        private final AlarmSettings alarms;
        private final RetrySettings retries;
        private final boolean retainData;
        private final String lambdaRuntime;
        private StageEnvironment environment;
        private boolean requirePinnedAccount;
        private final Map<String, Integer> reservedConcurrency;
        private Duration skewTolerance;
        private StageFreshness freshness;

        Copy(StageConfig c) {
            flags = c.flags;
            logRetentionDays = c.logRetentionDays;
            alarms = c.alarms;
            retries = c.retries;
            retainData = c.retainData;
            lambdaRuntime = c.lambdaRuntime;
            environment = c.environment;
            requirePinnedAccount = c.requirePinnedAccount;
            reservedConcurrency = new TreeMap<>(c.reservedConcurrency);
            skewTolerance = c.skewTolerance;
            freshness = c.freshness;
        }

        StageConfig build() {
            return new StageConfig(
                    flags,
                    logRetentionDays,
                    alarms,
                    retries,
                    retainData,
                    lambdaRuntime,
                    environment,
                    requirePinnedAccount,
                    reservedConcurrency,
                    skewTolerance,
                    freshness);
        }
    }

    /**
     * Alarm thresholds.
     *
     * @param failuresPerPeriod failed occurrences within one evaluation period that raise the alarm
     * @param periodMinutes the evaluation period
     */
    public record AlarmSettings(int failuresPerPeriod, int periodMinutes) {
        public AlarmSettings {
            if (failuresPerPeriod < 1) {
                throw new StageConfigException(
                        "alarms.failuresPerPeriod", Integer.toString(failuresPerPeriod), "a whole number >= 1");
            }
            if (periodMinutes < 1 || periodMinutes > 1440) {
                throw new StageConfigException(
                        "alarms.periodMinutes", Integer.toString(periodMinutes), "a whole number from 1 to 1440");
            }
        }
    }
}
