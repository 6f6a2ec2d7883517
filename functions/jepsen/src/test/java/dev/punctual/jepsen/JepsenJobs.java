package dev.punctual.jepsen;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The jobs the processes race on: {@code solo} alone in its lock group, and {@code alpha} and
 * {@code beta} sharing the group {@code pair} (so a lease of one excludes the other, and the shared
 * group takes the ledger's three-request path). Each runs every minute, UTC.
 */
final class JepsenJobs {

    static final String SOLO = "solo";
    static final String ALPHA = "alpha";
    static final String BETA = "beta";
    static final String PAIR = "pair";

    static final List<String> JOBS = List.of(SOLO, ALPHA, BETA);
    static final List<String> GROUPS = List.of(SOLO, PAIR);

    static final String CRON = "* * * * *";
    static final Duration EVERY = Duration.ofMinutes(1);
    static final int MAX_ATTEMPTS = 3;

    private JepsenJobs() {}

    static String group(String job) {
        return job.equals(SOLO) ? SOLO : PAIR;
    }

    static Instant occurrence(long firstOccurrenceMs, int round) {
        return Instant.ofEpochMilli(firstOccurrenceMs).plus(EVERY.multipliedBy(round));
    }
}
