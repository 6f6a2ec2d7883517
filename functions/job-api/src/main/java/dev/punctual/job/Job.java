package dev.punctual.job;

/**
 * A scheduled job: one method, called once per claimed occurrence. Throwing marks the occurrence
 * failed (it may be retried up to the job's max attempts); returning records a success only if the
 * fenced completion commits. Use {@link JobContext#fence()} to guard writes to your own data.
 */
@FunctionalInterface
public interface Job {

    JobResult run(JobContext context) throws Exception;
}
