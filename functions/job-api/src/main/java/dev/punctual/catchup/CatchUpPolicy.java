package dev.punctual.catchup;

import java.time.Duration;
import java.util.Objects;

/**
 * How much a job may catch up after missing occurrences.
 *
 * @param maxOccurrences the most missed occurrences replayed before the triggering one (0-1000)
 * @param maxAge missed occurrences older than this, measured back from the trigger, are not replayed
 * @param mode which missed occurrences are replayed
 */
public record CatchUpPolicy(int maxOccurrences, Duration maxAge, CatchUpMode mode) {
    public static final int LIMIT = 1000;

    public CatchUpPolicy {
        Objects.requireNonNull(maxAge, "maxAge");
        Objects.requireNonNull(mode, "mode");
        if (maxOccurrences < 0 || maxOccurrences > LIMIT) {
            throw new IllegalArgumentException("maxOccurrences must be 0-" + LIMIT + ", was " + maxOccurrences);
        }
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("maxAge must not be negative, was " + maxAge);
        }
    }

    /** Runs only the trigger; everything missed is recorded as missed. */
    public static CatchUpPolicy none() {
        return new CatchUpPolicy(0, Duration.ZERO, CatchUpMode.NONE);
    }

    /**
     * Replays up to {@code maxOccurrences} missed occurrences, oldest first, of those at most
     * {@code within} old when the next delivery comes; the rest are recorded as missed. For a weekly job
     * to catch up three missed weeks, {@code within} must reach back three weeks:
     * {@code oldestFirst(3, Duration.ofDays(22))}.
     */
    public static CatchUpPolicy oldestFirst(int maxOccurrences, Duration within) {
        return new CatchUpPolicy(maxOccurrences, within, CatchUpMode.OLDEST_FIRST);
    }

    /** Replays only the newest missed occurrence, if it is at most {@code within} old; the rest are recorded as missed. */
    public static CatchUpPolicy latestOnly(Duration within) {
        return new CatchUpPolicy(1, within, CatchUpMode.LATEST_ONLY);
    }

    /** The smallest age bound of a job's default policy, whatever its schedule. */
    public static final Duration DEFAULT_MIN_AGE = Duration.ofHours(6);

    /** How many missed occurrences a job's default policy replays. */
    public static final int DEFAULT_OCCURRENCES = 3;

    /**
     * The policy of a job that names none: up to 3 missed occurrences, oldest first, reaching back 3
     * periods of its schedule (at least 6 hours), so a daily job catches up three days and a weekly one
     * three weeks. {@code longestPeriod} is the longest time between two of its consecutive occurrences;
     * a one-time schedule has none and gets the 6 hours.
     */
    public static CatchUpPolicy defaultFor(java.util.Optional<Duration> longestPeriod) {
        Duration periods =
                longestPeriod.map(p -> p.multipliedBy(DEFAULT_OCCURRENCES)).orElse(Duration.ZERO);
        return oldestFirst(DEFAULT_OCCURRENCES, periods.compareTo(DEFAULT_MIN_AGE) > 0 ? periods : DEFAULT_MIN_AGE);
    }

    /**
     * Whether a missed occurrence can ever be replayed: the next delivery comes one period after it, so an
     * age bound shorter than the longest period lets none through (a policy that replays nothing should
     * say so with {@link #none()}).
     */
    public boolean reachesBackOne(Duration longestPeriod) {
        return mode == CatchUpMode.NONE || maxOccurrences == 0 || maxAge.compareTo(longestPeriod) >= 0;
    }

    /**
     * One line for people: "oldest first, up to 3 within 3d", "latest only, within 1h", "none". The age
     * reads as the CLI's durations are written (21d 3h, 1h 30m), exactly, never rounded.
     */
    public String describe() {
        return switch (mode) {
            case NONE -> "none";
            case LATEST_ONLY -> "latest only, within " + readable(maxAge);
            case OLDEST_FIRST -> "oldest first, up to " + maxOccurrences + " within " + readable(maxAge);
        };
    }

    /** {@code PT507H} as {@code 21d 3h}, {@code PT90M} as {@code 1h 30m}: every unit that is not zero. */
    static String readable(Duration age) {
        long seconds = age.toSeconds();
        long[] amounts = {seconds / 86_400, seconds % 86_400 / 3_600, seconds % 3_600 / 60, seconds % 60};
        String[] units = {"d", "h", "m", "s"};
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < amounts.length; i++) {
            if (amounts[i] > 0) {
                text.append(text.isEmpty() ? "" : " ").append(amounts[i]).append(units[i]);
            }
        }
        return text.isEmpty() ? "0s" : text.toString();
    }

    /** How many missed occurrences this policy lets one invocation replay. */
    int replayBudget() {
        return switch (mode) {
            case NONE -> 0;
            case LATEST_ONLY -> Math.min(1, maxOccurrences);
            case OLDEST_FIRST -> maxOccurrences;
        };
    }
}
