package dev.punctual.jepsen;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The jobs the processes race on: {@code solo} alone in its lock group, and {@code alpha} and
 * {@code beta} sharing the group {@code pair} (so a lease of one excludes the other, and the shared
 * group takes the ledger's three-request path); and entity {@code acme} of two per-entity jobs (issue
 * 21), whose run items live under the ledger ids {@code tenant:acme} and {@code pooled:acme}. The
 * entity of {@code tenant} holds a lease of its own, on its item {@code lock#tenant:acme}, with
 * claimant-chosen fences, held off by a maintenance hold on the job's group {@code tenant} (decision
 * 0029, 5: the default); the entity of {@code pooled} is kept under its job's group lease
 * ({@code sharingOneLease()}), so both paths are raced. Each runs every minute, UTC.
 * {@link #JOBS} are ledger ids; {@link #CATALOG_JOBS} are the catalog's job ids; {@link #GROUPS} are what
 * maintenance holds; {@link #LEASES} are the lock items the leases are taken on (and the domain items
 * their holders write).
 *
 * <p>And a long job (decision 0039): {@code close} plans {@link #CHUNKS} chunks and runs as one Step
 * Functions execution on moto, sharing the group {@code batch} with the short job {@code tidy}, so a
 * long occurrence's tenure (claim to completion, its lease extended to the execution's bound) is checked
 * against a short one's. Both run in the first {@link #LONG_ROUNDS} rounds only: a long claim whose
 * process is killed holds {@code batch} for its whole bound (a minute and {@code LongRun.LEASE_SLACK}),
 * longer than any run. Nothing recovers it in the suite (the watchdog's sweep is not run here), so the
 * kills that leave one behind come last. {@code batch} is not among {@link #GROUPS}: a hold on it would
 * wait out that bound.
 */
final class JepsenJobs {

    static final String SOLO = "solo";
    static final String ALPHA = "alpha";
    static final String BETA = "beta";
    static final String PAIR = "pair";

    /** The per-entity job whose entities hold their own leases, and its one raced entity's ledger id. */
    static final String TENANT_JOB = "tenant";

    /** The per-entity job that keeps its entities under its group's one lease. */
    static final String POOLED_JOB = "pooled";

    static final String ENTITY = "acme";
    static final String TENANT = TENANT_JOB + ":" + ENTITY;
    static final String POOLED = POOLED_JOB + ":" + ENTITY;

    /** The long job and the short job sharing its group {@link #BATCH}. */
    static final String CLOSE = "close";

    static final String TIDY = "tidy";
    static final String BATCH = "batch";

    /**
     * Three jobs sharing the group {@link #WIDE} of capacity {@link #WIDE_CAPACITY} (decision 0051): at most
     * two of them run at once, each on one of the group's two slots ({@code wide}, {@code wide#2}).
     */
    static final String GAMMA = "gamma";

    static final String DELTA = "delta";
    static final String OMEGA = "omega";
    static final String WIDE = "wide";
    static final int WIDE_CAPACITY = 2;

    /** The slots of {@link #WIDE}: its lease items, which maintenance holds and the final state reads. */
    static final List<String> WIDE_SLOTS = dev.punctual.ledger.LockSlots.slotIds(WIDE, WIDE_CAPACITY);

    /** The rounds the jobs of {@link #WIDE} run in (every profile): the first ones, to keep the run short. */
    static final int WIDE_ROUNDS = 6;

    /** How many runs a group admits at once: {@link #WIDE_CAPACITY} for {@link #WIDE}, else 1. */
    static int capacityOf(String group) {
        return group.equals(WIDE) ? WIDE_CAPACITY : 1;
    }

    /** The chunks every occurrence of {@link #CLOSE} plans. */
    static final List<String> CHUNKS = List.of("c1", "c2", "c3", "c4");

    /** The rounds {@link #CLOSE} and {@link #TIDY} run in (every profile): the first ones. */
    static final int LONG_ROUNDS = 4;

    static final List<String> JOBS = List.of(SOLO, ALPHA, BETA, TENANT, POOLED, TIDY, CLOSE, GAMMA, DELTA, OMEGA);

    /** The ledger ids the operator skips ahead of the workers: not {@link #BATCH}'s. */
    static final List<String> SKIPPED = List.of(SOLO, ALPHA, BETA, TENANT, POOLED);

    /** The ledger ids a stale redelivery goes straight to the ledger for: not the long job. */
    static final List<String> SHORT_JOBS = List.of(SOLO, ALPHA, BETA, TENANT, POOLED, TIDY, GAMMA, DELTA, OMEGA);

    /**
     * The lock items the operator pauses (decision 0040), each with the ledger ids whose claims meet its
     * mark: a job alone in its group ({@code solo}), the shared group ({@code pair}: both members), a
     * member alone ({@code alpha}, {@code beta}: its slot claim under the group's lease), the per-entity
     * job whose entity holds its own lease ({@code tenant}: through the group item the entity's claim
     * updates), that entity alone ({@code tenant:acme}), and the per-entity job whose entity runs under
     * its group's lease ({@code pooled}). Not {@link #BATCH}'s: a long claim's lease outlives any pause.
     */
    static final Map<String, List<String>> PAUSABLE = Map.of(
            SOLO, List.of(SOLO),
            PAIR, List.of(ALPHA, BETA),
            ALPHA, List.of(ALPHA),
            BETA, List.of(BETA),
            TENANT_JOB, List.of(TENANT),
            TENANT, List.of(TENANT),
            POOLED_JOB, List.of(POOLED));

    /** The paused lock items a ledger id's claims meet. */
    static List<String> pausesOf(String job) {
        return PAUSABLE.entrySet().stream()
                .filter(e -> e.getValue().contains(job))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    static final List<String> CATALOG_JOBS = List.of(SOLO, ALPHA, BETA, GAMMA, DELTA, OMEGA);
    static final List<String> GROUPS = List.of(SOLO, PAIR, TENANT_JOB, POOLED_JOB, WIDE, WIDE + "#2");
    static final List<String> LEASES = List.of(SOLO, PAIR, TENANT, POOLED_JOB, BATCH, WIDE, WIDE + "#2");

    static final String CRON = "* * * * *";
    static final Duration EVERY = Duration.ofMinutes(1);
    static final int MAX_ATTEMPTS = 3;

    private JepsenJobs() {}

    /** The lease a ledger id's claim takes: its group's, or for {@code tenant:acme} its own. */
    static String group(String job) {
        return switch (job) {
            case SOLO -> SOLO;
            case TENANT -> TENANT;
            case POOLED -> POOLED_JOB;
            case CLOSE, TIDY -> BATCH;
            case GAMMA, DELTA, OMEGA -> WIDE;
            default -> PAIR;
        };
    }

    /** For an entity's own lease: the job's group, whose maintenance hold its claims check. */
    static Optional<String> holdGroup(String job) {
        return job.equals(TENANT) ? Optional.of(TENANT_JOB) : Optional.empty();
    }

    /** The catalog's job of a ledger id, and its entity if it is one. */
    static String catalogJob(String job) {
        int colon = job.indexOf(':');
        return colon < 0 ? job : job.substring(0, colon);
    }

    static boolean isLong(String job) {
        return job.equals(CLOSE);
    }

    /** How many rounds a ledger id runs in: {@link #LONG_ROUNDS} for {@link #BATCH}'s jobs. */
    static int roundsOf(String job, int rounds) {
        if (group(job).equals(WIDE)) {
            return Math.min(rounds, WIDE_ROUNDS);
        }
        return group(job).equals(BATCH) ? Math.min(rounds, LONG_ROUNDS) : rounds;
    }

    static boolean isEntity(String job) {
        return job.indexOf(':') >= 0;
    }

    static Instant occurrence(long firstOccurrenceMs, int round) {
        return Instant.ofEpochMilli(firstOccurrenceMs).plus(EVERY.multipliedBy(round));
    }
}
