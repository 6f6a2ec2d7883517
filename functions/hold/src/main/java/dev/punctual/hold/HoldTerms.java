package dev.punctual.hold;

import dev.punctual.job.JobCatalog;
import dev.punctual.runtime.EntityLeaseTerms;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a hold is asked to be: the groups it takes (a stage's every lock group, for a data tool), why,
 * who holds it, the command it is held for, and its timing.
 *
 * @param lapse how long the hold outlives its last renewal: a holder that dies (SIGKILL, a lost host)
 *     holds the stage at most this long after it stopped renewing. Renewed every quarter of it
 * @param maxWait how long the take waits for running jobs (as {@code maintenance on --wait}); while it
 *     waits nothing renews, so the groups taken first are held for {@code maxWait + lapse} from the start
 * @param entityLeaseTerms per group whose entities hold their own leases, the longest such lease from its
 *     claim: the take waits, after holding the group, until that long after the last entity lease taken
 *     before it, and not at all when there is none within it (see {@code MaintenanceRequest})
 */
public record HoldTerms(
        List<String> groups,
        String reason,
        String by,
        Optional<String> command,
        Duration lapse,
        Duration maxWait,
        Duration pollEvery,
        Map<String, Duration> entityLeaseTerms) {

    /** A dead holder's hold ends within two minutes: short enough to wait out, long enough to renew. */
    public static final Duration DEFAULT_LAPSE = Duration.ofMinutes(2);

    public static final Duration MIN_LAPSE = Duration.ofSeconds(30);
    public static final Duration MAX_LAPSE = Duration.ofMinutes(15);

    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(500);

    public HoldTerms {
        groups = List.copyOf(groups);
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("groups: at least one lock group is required");
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("reason: required; it is shown in every skip the hold causes");
        }
        if (by == null || by.isBlank()) {
            throw new IllegalArgumentException("by: required; who holds maintenance is shown to every operator");
        }
        Objects.requireNonNull(command, "command");
        if (lapse.compareTo(MIN_LAPSE) < 0 || lapse.compareTo(MAX_LAPSE) > 0) {
            throw new IllegalArgumentException(
                    "lapse: " + lapse + " is out of range; accepted: " + MIN_LAPSE + " to " + MAX_LAPSE);
        }
        if (maxWait.isNegative() || pollEvery.isNegative() || pollEvery.isZero()) {
            throw new IllegalArgumentException("maxWait and pollEvery: 0 or more and more than 0 are accepted, were "
                    + maxWait + ", " + pollEvery);
        }
        entityLeaseTerms = Map.copyOf(entityLeaseTerms);
    }

    /**
     * A hold of every lock group of the catalog, waiting out the leases its per-entity jobs' entities
     * took of their own before it, with the default lapse and wait: what a data tool holds a stage with.
     * Such a lease can be held for 15 minutes and the skew tolerance after its claim; the ledger knows
     * when the last one was taken, so the take waits only when one was taken within that term (then it
     * needs a {@code maxWait} reaching its end, at most that long) and is held at once otherwise.
     */
    public static HoldTerms forCatalog(JobCatalog catalog, String reason, String by, Duration skewTolerance) {
        return of(catalog.lockItems(), reason, by).withEntityLeases(EntityLeaseTerms.of(catalog, skewTolerance));
    }

    /**
     * A hold of these groups with the default lapse and wait, for no named command. It does not wait out
     * entity leases: for groups of per-entity jobs, use {@link #forCatalog} (or {@link #withEntityLeases}).
     */
    public static HoldTerms of(List<String> groups, String reason, String by) {
        return new HoldTerms(groups, reason, by, Optional.empty(), DEFAULT_LAPSE, DEFAULT_WAIT, POLL, Map.of());
    }

    /** The same terms, naming the command the hold is for (shown by {@code status}). */
    public HoldTerms forCommand(String commandLine) {
        return new HoldTerms(groups, reason, by, Optional.of(commandLine), lapse, maxWait, pollEvery, entityLeaseTerms);
    }

    /** The same terms with another lapse. */
    public HoldTerms lapsingAfter(Duration newLapse) {
        return new HoldTerms(groups, reason, by, command, newLapse, maxWait, pollEvery, entityLeaseTerms);
    }

    /** The same terms, waiting for running jobs at most {@code wait}, looking every {@code every}. */
    public HoldTerms waitingAtMost(Duration wait, Duration every) {
        return new HoldTerms(groups, reason, by, command, lapse, wait, every, entityLeaseTerms);
    }

    /** The same terms, waiting out the entity leases of these groups. */
    public HoldTerms withEntityLeases(Map<String, Duration> terms) {
        return new HoldTerms(groups, reason, by, command, lapse, maxWait, pollEvery, terms);
    }

    /** How often the renewer extends every group: four chances before a lapse. */
    public Duration renewEvery() {
        return lapse.dividedBy(4);
    }
}
