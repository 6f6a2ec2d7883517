package dev.punctual.runtime;

import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code maintenance on} waits out for the groups of per-entity jobs whose entities hold their own
 * leases (decision 0029, 5): the longest lease an entity run can hold. That is the longest any run's
 * lease can be renewed to, an operator's run in its own JVM included (15 minutes, a function's longest
 * timeout, plus the clock-skew tolerance), not the job's pool timeout, which a run in the operator's JVM
 * may outlast by renewing.
 */
public final class EntityLeaseTerms {

    private EntityLeaseTerms() {}

    /**
     * Whether the job's entities hold their own leases: by default; not when the job keeps them under one
     * lease ({@code EntityJob.sharingOneLease()}) or shares a named lock group with other jobs, which its
     * entities must not overlap either.
     */
    public static boolean ownLeases(JobDefinition job) {
        return job.isPerEntity()
                && !job.perEntity().oneAtATime()
                && job.lockGroup().equals(job.id());
    }

    public static Map<String, Duration> of(JobCatalog catalog, Duration skewTolerance) {
        Map<String, Duration> terms = new TreeMap<>();
        for (JobDefinition job : catalog.jobs()) {
            if (ownLeases(job)) {
                terms.put(job.lockGroup(), FunctionPool.MAX_TIMEOUT.plus(skewTolerance));
            }
        }
        return terms;
    }
}
