package dev.punctual.entity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The name of an entity's schedule in the stage's entity schedule group: one name per (job, entity), the
 * same on every put, so a put is an update in place and never a second schedule. EventBridge Scheduler
 * names are 1-64 characters of letters, digits and {@code - _ .}.
 *
 * <p>Readable where it fits: {@code job.entity} (a job id has no {@code .}, so the first one splits).
 * Otherwise (an entity id with {@code :}, or too long) {@code job..} and a hash of both ids: still one
 * name per pair, and the schedule's input names the entity for whoever lists them.
 */
public final class EntityScheduleName {

    /** EventBridge Scheduler's limit on a schedule's name. */
    public static final int MAX = 64;

    private static final Pattern READABLE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    private EntityScheduleName() {}

    public static String of(String jobId, String entityId) {
        EntityIds.require(entityId);
        String readable = jobId + "." + entityId;
        if (readable.length() <= MAX && READABLE.matcher(entityId).matches()) {
            return readable;
        }
        String prefix = jobId + "..";
        return prefix + hash(jobId + ":" + entityId).substring(0, Math.min(26, MAX - prefix.length()));
    }

    /** The schedule group of a stage's entity schedules, beside its job schedules' group. */
    public static String group(String stage) {
        return "punctual-" + stage + "-entities";
    }

    /** Lower-case base32 (RFC 4648 alphabet) of the id pair's SHA-256: letters and digits only. */
    private static String hash(String text) {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        StringBuilder out = new StringBuilder();
        int buffer = 0;
        int bits = 0;
        for (byte b : digest) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(alphabet.charAt((buffer >> (bits - 5)) & 31));
                bits -= 5;
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }
}
