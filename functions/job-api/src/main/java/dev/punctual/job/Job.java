package dev.punctual.job;

import java.util.Optional;

/**
 * A scheduled job: one method, called once per claimed occurrence. Throwing marks the occurrence
 * failed (it may be retried up to the job's max attempts); returning records a success only if the
 * fenced completion commits. Use {@link JobContext#fence()} to guard writes to your own data.
 */
@FunctionalInterface
public interface Job {

    JobResult run(JobContext context) throws Exception;

    /**
     * Counts what {@link #run} would do for this occurrence, changing nothing and sending nothing: a dry
     * run shows it. Read the same selection {@code run} acts on, so the counts are what a run would do
     * now. Empty when the job cannot tell; the default.
     */
    default Optional<JobPreview> preview(JobContext context) throws Exception {
        return Optional.empty();
    }
}
