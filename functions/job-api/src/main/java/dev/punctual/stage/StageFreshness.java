package dev.punctual.stage;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A stage's default freshness bound (decision 0042): every job with a repeating schedule and no
 * {@code freshWithin} of its own is held to {@code periods} periods of its schedule plus an hour. Zero, the
 * default, sets none: only the jobs that name a bound are watched. The CDK app writes it into each function's
 * environment ({@link #ENV}) and the stage's outputs; the watchdog and the CLI read it back from there.
 *
 * @param periods how many periods of a job's schedule it may go without a success; 0 for no default
 */
public record StageFreshness(int periods) {

    public static final String ENV = "PUNCTUAL_FRESH_WITHIN_PERIODS";

    /** No stage default: only jobs with their own {@code freshWithin} are watched. */
    public static final StageFreshness NONE = new StageFreshness(0);

    /** The most periods accepted: beyond that a daily job would be noticed after a month, too late to page. */
    public static final int MOST_PERIODS = 30;

    /** Added to the periods: the watchdog's hourly cadence, the run's own length, the scheduler's retries. */
    public static final Duration SLACK = Duration.ofHours(1);

    /** The shortest bound: the watchdog looks once an hour, so anything shorter would flap. */
    public static final Duration SHORTEST = Duration.ofHours(2);

    /** The longest bound: a yearly job's year and a month. */
    public static final Duration LONGEST = Duration.ofDays(400);

    public StageFreshness {
        if (periods < 0 || periods > MOST_PERIODS) {
            throw new StageConfigException(
                    "freshWithinPeriods", Integer.toString(periods), "a whole number from 0 (none) to " + MOST_PERIODS);
        }
    }

    /** The default bound for a schedule with this period; empty when the stage sets none. */
    public Optional<Duration> boundFor(Duration period) {
        if (periods == 0) {
            return Optional.empty();
        }
        Duration bound = period.multipliedBy(periods).plus(SLACK);
        if (bound.compareTo(SHORTEST) < 0) {
            return Optional.of(SHORTEST);
        }
        return Optional.of(bound.compareTo(LONGEST) > 0 ? LONGEST : bound);
    }

    /** Reads what the CDK app wrote; none when absent (a stage deployed before decision 0042). */
    public static StageFreshness fromEnvironment(Map<String, String> env) {
        String value = env.get(ENV);
        if (value == null || value.isBlank()) {
            return NONE;
        }
        try {
            return new StageFreshness(Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            throw new StageConfigException(ENV, value, "a whole number from 0 (none) to " + MOST_PERIODS);
        }
    }

    public Map<String, String> toEnvironment() {
        return Map.of(ENV, Integer.toString(periods));
    }

    /** For people: {@code 3 periods + 1h}, or {@code none}. */
    public String describe() {
        return periods == 0 ? "none" : periods + (periods == 1 ? " period" : " periods") + " + 1h";
    }
}
