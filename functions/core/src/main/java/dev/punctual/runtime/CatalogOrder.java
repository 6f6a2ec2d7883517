package dev.punctual.runtime;

import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.RunKey;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The source material's "due jobs run in manifest order, never in parallel": when jobs of one lock group
 * are due at the same instant, a scheduled delivery lets the jobs before it in the catalog go first. The
 * scheduler delivers each job on its own, so the later job's delivery may arrive first: it waits while an
 * earlier one's run of that instant has not started and may still arrive (within {@link #ARRIVAL_GRACE}
 * of the occurrence); once the earlier one holds the group, the group's lease orders the two. An earlier
 * job whose delivery does not come in that time is not waited for: its schedule may be off, and the group
 * must not stall for it.
 */
final class CatalogOrder {

    /** How long after the occurrence an earlier job's delivery is still expected. */
    static final Duration ARRIVAL_GRACE = Duration.ofSeconds(30);

    private final RuntimeServices services;

    CatalogOrder(RuntimeServices services) {
        this.services = services;
    }

    /** The jobs before {@code job} in the catalog that share its lock group and are due at {@code at} too. */
    List<JobDefinition> before(JobDefinition job, Instant at) {
        List<JobDefinition> earlier = new ArrayList<>();
        for (JobDefinition other : services.catalog().jobs()) {
            if (other.id().equals(job.id())) {
                break;
            }
            if (other.lockGroup().equals(job.lockGroup())
                    && OccurrenceCalculator.of(other.schedule()).isOccurrence(at)) {
                earlier.add(other);
            }
        }
        return earlier;
    }

    /**
     * Whether {@code earlier}'s delivery of {@code at} may still come: the grace has not passed and its run
     * item is not there (one ledger read; a shared group writes the run item at commit, so an earlier job
     * already running is also waited for, at most the grace, before the group's lease orders the two).
     */
    boolean pending(JobDefinition earlier, Instant at) {
        return services.clock().instant().isBefore(at.plus(ARRIVAL_GRACE))
                && services.ledger().run(new RunKey(earlier.id(), at)).isEmpty();
    }
}
