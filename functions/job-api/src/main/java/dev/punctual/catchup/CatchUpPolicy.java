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

    /** How many missed occurrences this policy lets one invocation replay. */
    int replayBudget() {
        return switch (mode) {
            case NONE -> 0;
            case LATEST_ONLY -> Math.min(1, maxOccurrences);
            case OLDEST_FIRST -> maxOccurrences;
        };
    }
}
