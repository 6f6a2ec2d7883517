package dev.punctual.job;

import java.util.List;
import java.util.Optional;

/**
 * A job whose occurrence runs longer than one invocation (declared with {@code runsLong}, decision 0039):
 * its plan lists the occurrence's chunks, each chunk runs once in its own invocation, and its finish runs
 * after every chunk succeeded. Each step gets the same {@link JobContext} as a short job's run: the
 * occurrence, its fence (guard your writes with it), {@link JobContext#shouldStop()}, the stage's flags, the
 * delivery port. Teams write Java only; the stage deploys the Step Functions state machine that calls these.
 */
public interface LongJob extends Job {

    /**
     * The keys of this occurrence's chunks (tenant ids, row ranges), at most {@link LongRun#MAX_CHUNKS}, each
     * accepted by {@link LongRun#acceptedKey} and distinct. Called once per execution; an empty plan goes
     * straight to {@link #finish}. Read what the chunks will act on, change nothing.
     */
    List<String> plan(JobContext context) throws Exception;

    /**
     * One chunk's work, in one invocation: its success is recorded once under the occurrence's fence, and a
     * chunk recorded as done is never run again by that occurrence. Throwing fails this attempt; it is
     * retried up to the job's {@code maxAttempts}, then fails the occurrence naming the chunk. Poll
     * {@link JobContext#shouldStop()} between units of work.
     */
    JobResult chunk(JobContext context, String key) throws Exception;

    /**
     * After every planned chunk succeeded, before the occurrence is recorded SUCCEEDED: a summary for the
     * outcome line (its counts are added to {@code chunks}). Nothing to do by default.
     */
    default JobResult finish(JobContext context, ChunkTally tally) throws Exception {
        return JobResult.empty();
    }

    /** A long job's work is its chunks: its occurrence never calls {@code run}. */
    @Override
    default JobResult run(JobContext context) {
        throw new UnsupportedOperationException("a long job runs as plan, chunks and finish, never run()");
    }

    /** The dry run: by default the plan's chunk count, changing nothing. */
    @Override
    default Optional<JobPreview> preview(JobContext context) throws Exception {
        return Optional.empty();
    }

    /**
     * What the chunks did, for {@link #finish}.
     *
     * @param planned the chunks the plan listed
     * @param succeeded those recorded as succeeded (all of them when finish is called)
     */
    record ChunkTally(int planned, int succeeded) {}
}
