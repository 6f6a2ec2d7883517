package dev.punctual.time;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;

/**
 * A window over which occurrences due in the same minute are spread: each subject (an entity of a job
 * today, a whole job later) gets a stable offset in whole minutes within it, derived from its identity
 * alone (decision 0030). Pure: no clock, no AWS.
 *
 * <p>The offset is SHA-256 of the identity's parts (each as its UTF-8 length, 4 bytes big-endian, then its
 * bytes), the first 8 bytes of the digest read as an unsigned big-endian number, modulo the window's
 * minutes. SHA-256 is fixed by FIPS 180-4 and every Java SE runtime must provide it, so the offset is the
 * same on every JVM, release and machine; {@code String.hashCode} is fixed too but puts ids that differ
 * in their last character on neighbouring values, and {@code Object.hashCode} is not stable at all.
 *
 * @param window whole minutes, from 2 to 60: the offsets are 0 to window - 1 minutes
 */
public record Spread(Duration window) {

    /** The longest window: an offset stays within the hour it shifts (docs/time.md, "Spreading"). */
    public static final Duration LONGEST = Duration.ofHours(1);

    private static final String ACCEPTED = "whole minutes from 2 to 60, e.g. Duration.ofMinutes(10)";

    public Spread {
        if (window == null) {
            throw new ScheduleExpressionException("spreadOver", "null", "is missing", ACCEPTED);
        }
        if (window.isNegative()
                || window.compareTo(LONGEST) > 0
                || window.toMinutes() < 2
                || !window.equals(Duration.ofMinutes(window.toMinutes()))) {
            throw new ScheduleExpressionException(
                    "spreadOver",
                    window.toString(),
                    "is not a window Punctual can spread over (EventBridge cron fires on whole minutes, and a"
                            + " shift of an hour or more would move occurrences into other hours and days)",
                    ACCEPTED);
        }
    }

    /** The window's length in minutes. */
    public int minutes() {
        return (int) window.toMinutes();
    }

    /**
     * The subject's wanted offset in minutes, 0 to {@code minutes() - 1}: the same for the same parts,
     * everywhere. The offset deployed may be smaller ({@link Schedule#largestExactOffset}).
     */
    public int offsetMinutes(String... identity) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java SE runtime provides SHA-256", e);
        }
        for (String part : identity) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
            sha.update(bytes);
        }
        long first = ByteBuffer.wrap(sha.digest(), 0, 8).getLong();
        return (int) Long.remainderUnsigned(first, minutes());
    }

    /** "10 minutes", for messages and listings. */
    public String describe() {
        return minutes() + " minutes";
    }
}
