package dev.punctual.cli.verify;

import dev.punctual.job.JobDefinition;
import dev.punctual.longrun.LongRunNames;

/**
 * What the catalog says one long job's state machine is (decision 0039, 4; infra's LongJobDefinition writes
 * the same values).
 *
 * @param job the job's id
 * @param stateMachine its state machine's name, {@code punctual-<stage>-<job>}
 * @param timeoutSeconds the execution's TimeoutSeconds: the job's {@code maxDuration}
 * @param chunksAtOnce the {@code Chunks} map's MaxConcurrency
 * @param chunkRetries the chunk task's retries of {@code ChunkAttemptFailed}: {@code maxAttempts - 1}, 0 when
 *     the job has one attempt (the definition then has no such retrier)
 */
public record ExpectedLongJob(
        String job, String stateMachine, long timeoutSeconds, int chunksAtOnce, int chunkRetries) {

    /** The long job {@code job} as the stage {@code stage} deploys it; the job must run long. */
    public static ExpectedLongJob of(String stage, JobDefinition job) {
        if (!job.isLong()) {
            throw new IllegalArgumentException("job " + job.id() + " does not run long");
        }
        return new ExpectedLongJob(
                job.id(),
                LongRunNames.stateMachine(stage, job.id()),
                job.longRun().maxDuration().toSeconds(),
                job.longRun().chunksAtOnce(),
                job.maxAttempts() - 1);
    }
}
