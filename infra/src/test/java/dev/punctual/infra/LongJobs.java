package dev.punctual.infra;

import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.LongJob;
import dev.punctual.job.LongRun;
import java.time.Duration;
import java.util.List;

/** Long jobs for the infra tests (decision 0039): what a stage deploys for one, never run here. */
final class LongJobs {

    private LongJobs() {}

    /** A long job in the default pool. */
    static JobDefinition job(String id, Duration maxDuration, int chunksAtOnce, int maxAttempts) {
        return builder(id, maxDuration, chunksAtOnce, maxAttempts).build();
    }

    /** A long job in {@code pool}, 6 hours, 3 chunks at once, 3 attempts. */
    static JobDefinition inPool(String id, FunctionPool pool) {
        return builder(id, Duration.ofHours(6), 3, 3).pool(pool).build();
    }

    /** A per-entity long job in {@code pool}. */
    static JobDefinition perEntity(String id, FunctionPool pool) {
        return builder(id, Duration.ofHours(2), 4, 2)
                .pool(pool)
                .perEntity(EntityJob.parameters("locale"))
                .build();
    }

    private static JobDefinition.Builder builder(String id, Duration maxDuration, int chunksAtOnce, int maxAttempts) {
        return JobDefinition.builder(id)
                .schedule("0 2 * * *", "UTC")
                .maxAttempts(maxAttempts)
                .runsLong(LongRun.within(maxDuration).chunksAtOnce(chunksAtOnce))
                .job(services -> new Tenants());
    }

    /** Plans two tenants and does nothing with them. */
    static final class Tenants implements LongJob {
        @Override
        public List<String> plan(JobContext context) {
            return List.of("acme", "globex");
        }

        @Override
        public JobResult chunk(JobContext context, String key) {
            return JobResult.empty();
        }
    }
}
