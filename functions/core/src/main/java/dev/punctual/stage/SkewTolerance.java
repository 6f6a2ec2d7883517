package dev.punctual.stage;

import java.time.Duration;
import java.util.Map;

/**
 * How far the clocks of a stage's runners may disagree: a lease ends this long after its holder's
 * deadline, so a successor whose clock runs ahead by less never starts before the holder stopped. The
 * CDK app writes the stage's value into every function's environment ({@link #toEnvironment()}); the
 * handler reads it back ({@link #fromEnvironment(Map)}), through the same name.
 *
 * @param value between {@code PT0S} and {@link #MAX}; a larger one delays every takeover after a crash
 *     by as much
 */
public record SkewTolerance(Duration value) {

    /** The function environment variable: whole milliseconds. */
    public static final String ENV = "PUNCTUAL_SKEW_TOLERANCE_MS";

    /**
     * Two seconds: Lambda hosts keep time through the Amazon Time Sync Service, and the Jepsen-style
     * suite found no overlapping holders with clocks 2 s apart (docs/ledger.md, "Clock-skew tolerance").
     */
    public static final Duration DEFAULT_VALUE = Duration.ofSeconds(2);

    /** The largest accepted: Lambda's own retries come after one minute. */
    public static final Duration MAX = Duration.ofSeconds(60);

    public static final SkewTolerance DEFAULT = new SkewTolerance(DEFAULT_VALUE);

    public SkewTolerance {
        if (value == null || value.isNegative() || value.compareTo(MAX) > 0) {
            throw new StageConfigException(
                    "skewTolerance", String.valueOf(value), "between PT0S and " + MAX + " (0 to 60 seconds)");
        }
    }

    /** The stage's tolerance as the CDK app wrote it; the default when the variable is absent. */
    public static SkewTolerance fromEnvironment(Map<String, String> env) {
        String text = env.get(ENV);
        if (text == null) {
            return DEFAULT;
        }
        long millis;
        try {
            millis = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new StageConfigException(ENV, text, "a whole number of milliseconds from 0 to " + MAX.toMillis());
        }
        if (millis < 0 || millis > MAX.toMillis()) {
            throw new StageConfigException(ENV, text, "a whole number of milliseconds from 0 to " + MAX.toMillis());
        }
        return new SkewTolerance(Duration.ofMillis(millis));
    }

    /** The one variable a function of the stage receives. */
    public Map<String, String> toEnvironment() {
        return Map.of(ENV, Long.toString(value.toMillis()));
    }
}
