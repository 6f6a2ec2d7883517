package dev.punctual.jepsen;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The jobs the processes race on: {@code solo} alone in its lock group, and {@code alpha} and
 * {@code beta} sharing the group {@code pair} (so a lease of one excludes the other, and the shared
 * group takes the ledger's three-request path); and entity {@code acme} of the per-entity job
 * {@code tenant} (issue 21), whose run items live under the ledger id {@code tenant:acme} and whose
 * lease is the job's group {@code tenant} (declared {@code sharingOneLease()}: entities' own leases are
 * not yet raced here). Each runs every minute, UTC.
 * {@link #JOBS} are ledger ids; {@link #CATALOG_JOBS} are the catalog's job ids.
 */
final class JepsenJobs {

    static final String SOLO = "solo";
    static final String ALPHA = "alpha";
    static final String BETA = "beta";
    static final String PAIR = "pair";

    /** The per-entity job, its one raced entity, and the ledger id that entity's occurrences are kept under. */
    static final String TENANT_JOB = "tenant";

    static final String ENTITY = "acme";
    static final String TENANT = TENANT_JOB + ":" + ENTITY;

    static final List<String> JOBS = List.of(SOLO, ALPHA, BETA, TENANT);
    static final List<String> CATALOG_JOBS = List.of(SOLO, ALPHA, BETA);
    static final List<String> GROUPS = List.of(SOLO, PAIR, TENANT_JOB);

    static final String CRON = "* * * * *";
    static final Duration EVERY = Duration.ofMinutes(1);
    static final int MAX_ATTEMPTS = 3;

    private JepsenJobs() {}

    static String group(String job) {
        return switch (job) {
            case SOLO -> SOLO;
            case TENANT -> TENANT_JOB;
            default -> PAIR;
        };
    }

    static Instant occurrence(long firstOccurrenceMs, int round) {
        return Instant.ofEpochMilli(firstOccurrenceMs).plus(EVERY.multipliedBy(round));
    }
}
