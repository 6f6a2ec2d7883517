package dev.punctual.jepsen;

import dev.punctual.ledger.Lease;
import java.util.Locale;

/**
 * How big a run is, in counts, never in time: every worker walks all its rounds and the operator takes
 * at least {@code minHolds} holds, however slow the machine, so a run's workload (kills, fenced
 * completions, holds) does not depend on how fast the machine is. {@code ci} (the default) takes
 * under two minutes on a quiet two-core machine and longer on a loaded one (a crashed command's hold
 * alone holds every group for HeldMaintenance's least lapse, 30 s); {@code long} is run by hand:
 * {@code -Dpunctual.jepsen=long}. The seed can be set with
 * {@code -Dpunctual.jepsen.seed=...}; the interleavings still depend on timing, so a seed repeats the
 * choices (skews, delays, faults, kills), not the history.
 *
 * @param workers worker processes racing the same occurrences
 * @param operators processes turning maintenance on and off meanwhile
 * @param rounds occurrences of each ledger id ({@link JepsenJobs#JOBS}): five jobs and two entities, of
 *     which the long job and its group's short one run in the first {@link JepsenJobs#LONG_ROUNDS} only
 * @param minHolds the operator keeps turning maintenance on and off until the workers are done and it
 *     has held every group at least this often
 * @param maxSkewMs process clocks are spread evenly over ±this; the widest pair is twice it apart
 * @param killBudget at most this many process launches may halt themselves between a side effect and its
 *     commit (each at most once), so at most this many kills in a run
 * @param maxRestarts killed processes are started again, this many times at most: the kill budget's and
 *     the {@link #LONG_KILLS} a run's long occurrences add
 */
record JepsenProfile(
        String name,
        int workers,
        int operators,
        int rounds,
        int minHolds,
        double faultProbability,
        long maxSkewMs,
        int killBudget,
        int maxRestarts,
        double killProbability,
        double overrunProbability,
        double failProbability,
        double runtimeShare,
        double refusedShare,
        double redeliveryShare,
        long seed) {

    static final String PROPERTY = "punctual.jepsen";

    /**
     * The kills a run's long occurrences add to the budget's, each once per run, whoever gets there first:
     * one before a long claim's start, one before a chunk's record ({@code JepsenWorker.LongRunKills}).
     */
    static final int LONG_KILLS = 2;

    /**
     * The documented tolerance: a lease ends {@link Lease#DEADLINE_MARGIN} (2 s) after its holder's
     * invocation, so two clocks may be that far apart. Each process is skewed by at most half of it.
     */
    static final long TOLERATED_SKEW_MS = Lease.DEADLINE_MARGIN.toMillis() / 2;

    static JepsenProfile ci(long seed) {
        return new JepsenProfile(
                "ci", 5, 1, 10, 3, 0.05, TOLERATED_SKEW_MS, 3, 3 + LONG_KILLS, 0.15, 0.12, 0.12, 0.2, 0.08, 0.1, seed);
    }

    static JepsenProfile longRun(long seed) {
        return new JepsenProfile(
                "long",
                8,
                1,
                60,
                12,
                0.05,
                TOLERATED_SKEW_MS,
                16,
                16 + LONG_KILLS,
                0.1,
                0.1,
                0.12,
                0.2,
                0.08,
                0.1,
                seed);
    }

    /**
     * The profile named by {@code -Dpunctual.jepsen} ({@code ci} when unset), with the seed of
     * {@code -Dpunctual.jepsen.seed}. {@code -Dpunctual.jepsen.maxSkewMs} overrides the skew, for the
     * experiment that shows the checker sees clocks drifting beyond the tolerance.
     */
    static JepsenProfile selected() {
        long seed = Long.getLong(PROPERTY + ".seed", 20260301L);
        String name = System.getProperty(PROPERTY, "ci").trim().toLowerCase(Locale.ROOT);
        JepsenProfile profile = switch (name) {
            case "", "ci" -> ci(seed);
            case "long" -> longRun(seed);
            default -> throw new IllegalArgumentException(PROPERTY + "=" + name + " is not a profile; use ci or long");
        };
        long skew = Long.getLong(PROPERTY + ".maxSkewMs", profile.maxSkewMs());
        return skew == profile.maxSkewMs() ? profile : profile.withSkew(skew);
    }

    JepsenProfile withSkew(long newMaxSkewMs) {
        return new JepsenProfile(
                name + "-skew" + newMaxSkewMs,
                workers,
                operators,
                rounds,
                minHolds,
                faultProbability,
                newMaxSkewMs,
                killBudget,
                maxRestarts,
                killProbability,
                overrunProbability,
                failProbability,
                runtimeShare,
                refusedShare,
                redeliveryShare,
                seed);
    }

    int processes() {
        return workers + operators;
    }

    /** Process {@code index} of {@link #processes()}: clocks spread evenly from -maxSkew to +maxSkew. */
    long skewOf(int index) {
        int n = processes();
        return n == 1 ? 0 : -maxSkewMs + Math.round(index * (2.0 * maxSkewMs / (n - 1)));
    }
}
