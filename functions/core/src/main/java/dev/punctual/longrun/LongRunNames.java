package dev.punctual.longrun;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The names of a long job's state machine and of its executions (decision 0039), shared by the stage that
 * deploys them and the runtime that starts them, so neither needs the other's output.
 *
 * <p>An execution's name is derived from (stage, job, occurrence, entity) and the fence of the claim that
 * starts it: every start of one claim sends the same name (a resend, a recovery after a kill), so Step
 * Functions never runs two executions for it; a later claim of the occurrence (a retry after a failure, a
 * replay) has a higher fence and so a name of its own, which the 90-day reuse rule would otherwise refuse.
 * Readable where it fits Step Functions' 80 characters ({@code prod-month-end-close-20270131T2300Z-f7-3fa9c1});
 * longer, or with characters a name may not hold, it is cut and ends in a hash of the whole, still derived
 * from the same parts.
 */
public final class LongRunNames {

    /** Step Functions' limit on a state machine's and an execution's name. */
    public static final int MAX_NAME = 80;

    /** What a name may hold here (a subset of what Step Functions accepts: no spaces, no punctuation it refuses). */
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.-]+");

    private static final DateTimeFormatter MINUTE =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmm'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SECOND =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private static final int HASH_CHARS = 12;

    /** The claim's part of an execution's name: 16.7 million values per (stage, job, occurrence, fence). */
    private static final int CLAIM_CHARS = 6;

    private LongRunNames() {}

    /**
     * The state machine of a long job in a stage: {@code punctual-<stage>-<job>}, at most 80 characters
     * (stage and job ids are short and safe; a longer pair is cut and hashed like an execution's name).
     */
    public static String stateMachine(String stage, String jobId) {
        return fit("punctual-" + stage + "-" + jobId, "punctual|" + stage + "|" + jobId);
    }

    /**
     * The EventBridge rule that sends a pool's long jobs' ended executions to its function:
     * {@code punctual-<stage>-long-ended-<pool>}. Named, so that {@code verify} knows the one EventBridge
     * statement on the function is the stage's own ({@link #isStatusRule}).
     *
     * @throws IllegalArgumentException when it would pass EventBridge's 64 characters, naming the pool
     */
    public static String statusRule(String stage, String pool) {
        String name = statusRulePrefix(stage) + pool;
        if (name.length() > 64) {
            throw new IllegalArgumentException("the long-run rule of pool " + pool + " in stage " + stage + " would be"
                    + " named '" + name + "', longer than EventBridge's 64 characters; shorten the pool's name");
        }
        return name;
    }

    /** Whether {@code arn} is a rule ARN of the stage's long-run rules, in any pool. */
    public static boolean isStatusRule(String arn, String stage) {
        int at = arn.indexOf(":rule/");
        if (!arn.startsWith("arn:") || !arn.contains(":events:") || at < 0) {
            return false;
        }
        String rule = arn.substring(at + ":rule/".length());
        return rule.startsWith(statusRulePrefix(stage)) && rule.indexOf('/') < 0;
    }

    private static String statusRulePrefix(String stage) {
        return "punctual-" + stage + "-long-ended-";
    }

    /** The ARN of the execution {@code name} of {@code stateMachineArn}. */
    public static String executionArn(String stateMachineArn, String name) {
        return stateMachineArn.replaceFirst(":stateMachine:", ":execution:") + ":" + name;
    }

    /**
     * The execution of one claim of an occurrence: {@code <stage>-<job>-<occurrence>[-<entity>]-f<fence>-<claim>},
     * the last part six hex characters of a hash of the claim's owner token. The fence tells the claims of
     * one ledger apart; the token's hash tells apart two ledgers' claims with the same fence (a stage torn
     * down and deployed again within Step Functions' 90 days, a fresh emulator table), whose executions
     * would otherwise share a name and be read back as each other's.
     *
     * @param entityId the entity of a per-entity job's occurrence, else empty
     * @param fence the claim's fence (at least 1)
     * @param ownerToken the claim's lease owner token
     */
    public static String execution(
            String stage, String jobId, Instant occurrence, Optional<String> entityId, long fence, String ownerToken) {
        if (fence < 1) {
            throw new IllegalArgumentException("a long occurrence's execution needs a claim's fence, was " + fence);
        }
        String time = (occurrence.getEpochSecond() % 60 == 0 && occurrence.getNano() == 0 ? MINUTE : SECOND)
                .format(occurrence);
        String claim = sha256(ownerToken).substring(0, CLAIM_CHARS);
        String readable =
                stage + "-" + jobId + "-" + time + entityId.map(e -> "-" + e).orElse("") + "-f" + fence + "-" + claim;
        String whole =
                stage + "|" + jobId + "|" + occurrence + "|" + entityId.orElse("") + "|" + fence + "|" + ownerToken;
        return fit(readable, whole);
    }

    /** The readable form when it fits and is safe; else its safe prefix cut short, then a hash of the whole. */
    private static String fit(String readable, String whole) {
        if (readable.length() <= MAX_NAME && SAFE.matcher(readable).matches()) {
            return readable;
        }
        String safe = readable.replaceAll("[^A-Za-z0-9_.-]", "_");
        String hash = sha256(whole).substring(0, HASH_CHARS);
        int keep = Math.min(safe.length(), MAX_NAME - HASH_CHARS - 1);
        return safe.substring(0, keep) + "-" + hash;
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
