package dev.punctual.job;

import java.time.Duration;

/**
 * Declares that a job runs long (decision 0039): each occurrence is one Step Functions execution that runs
 * the job's plan, then each chunk once (at most {@link #chunksAtOnce} at a time), then its finish. Every
 * chunk must fit one invocation; the whole occurrence need not, up to {@link #maxDuration}.
 *
 * @param maxDuration the longest an occurrence may run, from its claim to its finish: the execution's
 *     timeout, and what the lock group's lease is held for (plus {@link #LEASE_SLACK}). Positive, whole
 *     seconds, at most {@link #LONGEST}; {@link #DEFAULT_MAX_DURATION} unless set.
 * @param chunksAtOnce how many chunks run at the same time (the Map state's MaxConcurrency): 1 to
 *     {@link #MOST_CHUNKS_AT_ONCE}; {@link #DEFAULT_CHUNKS_AT_ONCE} unless set
 */
public record LongRun(Duration maxDuration, int chunksAtOnce) {

    /** Step Functions STANDARD workflows run for at most one year. */
    public static final Duration LONGEST = Duration.ofDays(365);

    /** A day: month-end work over every tenant, a nightly rebuild, with room for retries. */
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofHours(24);

    public static final int DEFAULT_CHUNKS_AT_ONCE = 4;

    /** An inline Map runs at most 40 iterations at once, whatever a larger MaxConcurrency asks. */
    public static final int MOST_CHUNKS_AT_ONCE = 40;

    /**
     * The most chunks one occurrence may plan. An inline Map writes about 7 history events per chunk and 4
     * per retry; at {@link #MOST_ATTEMPTS} attempts, 1,000 chunks stay under an execution's 25,000-event
     * history, and their keys ({@link #MAX_KEY_CHARS} each) under the 256 KiB a state may pass on.
     */
    public static final int MAX_CHUNKS = 1_000;

    /** A chunk key's longest form: a tenant id, a row range ({@code rows-0-9999}), a date. */
    public static final int MAX_KEY_CHARS = 64;

    /** The most attempts of one chunk a long job may declare (its {@code maxAttempts}): see {@link #MAX_CHUNKS}. */
    public static final int MOST_ATTEMPTS = 5;

    /**
     * How long the group's lease outlives the execution's timeout: the last step's invocation (at most 15
     * minutes) may still be completing when Step Functions times the execution out.
     */
    public static final Duration LEASE_SLACK = Duration.ofMinutes(16);

    private static final java.util.regex.Pattern KEY = java.util.regex.Pattern.compile("[A-Za-z0-9._:=+@-]{1,64}");

    public LongRun {
        java.util.Objects.requireNonNull(maxDuration, "maxDuration");
        if (!maxDuration.isPositive()
                || maxDuration.compareTo(LONGEST) > 0
                || maxDuration.getNano() != 0
                || maxDuration.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new CatalogDefinitionException("runsLong: maxDuration '" + maxDuration + "' is not accepted; expected"
                    + " whole seconds from 1 minute to " + LONGEST.toDays() + " days (Step Functions' longest"
                    + " execution), e.g. Duration.ofHours(6)");
        }
        if (chunksAtOnce < 1 || chunksAtOnce > MOST_CHUNKS_AT_ONCE) {
            throw new CatalogDefinitionException("runsLong: chunksAtOnce " + chunksAtOnce + " is not accepted;"
                    + " expected 1 to " + MOST_CHUNKS_AT_ONCE + " (an inline Map's concurrency)");
        }
    }

    /** A long job that runs for at most {@code maxDuration}, {@value #DEFAULT_CHUNKS_AT_ONCE} chunks at a time. */
    public static LongRun within(Duration maxDuration) {
        return new LongRun(maxDuration, DEFAULT_CHUNKS_AT_ONCE);
    }

    /** The defaults: {@link #DEFAULT_MAX_DURATION}, {@value #DEFAULT_CHUNKS_AT_ONCE} chunks at a time. */
    public static LongRun defaults() {
        return within(DEFAULT_MAX_DURATION);
    }

    /** The same limits with {@code count} chunks running at once. */
    public LongRun chunksAtOnce(int count) {
        return new LongRun(maxDuration, count);
    }

    /**
     * Whether a plan's key is accepted: 1 to {@value #MAX_KEY_CHARS} letters, digits and {@code . _ : = + @ -}
     * (it travels in the execution's state and names the chunk's ledger record).
     */
    public static boolean acceptedKey(String key) {
        return key != null && KEY.matcher(key).matches();
    }

    /** One line for {@code jobs} and {@code plan}: {@code long: within PT6H, 4 chunks at once}. */
    public String describe() {
        return "long: within " + maxDuration + ", " + chunksAtOnce + (chunksAtOnce == 1 ? " chunk" : " chunks")
                + " at once";
    }
}
