package dev.punctual.cli.verify;

import dev.punctual.infra.RetrySettings;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.time.Schedule;
import java.util.List;
import java.util.Map;

/**
 * A schedule as the CDK app deploys it for one job (see {@code infra/JobsStack}): named by the job id,
 * the expression and zone of {@link JobDefinition#deployment()} (shifted by its spread), enabled with the stage's schedules, the
 * stage's scheduler retry policy, and the target input {@link ScheduledPayload#forJob}. Computed by the
 * same code the CDK app calls, so verify and a deploy cannot disagree about what is expected.
 *
 * @param name the schedule's name, the job id
 * @param pool the function pool the schedule's target is
 */
public record ExpectedSchedule(
        String name,
        String pool,
        String expression,
        String zone,
        String state,
        int retryAttempts,
        long maxEventAgeSeconds,
        Map<String, Object> input) {

    public static ExpectedSchedule of(JobDefinition job, RetrySettings retries, boolean schedulesEnabled) {
        Schedule.Deployment deployment = job.deployment();
        return new ExpectedSchedule(
                job.id(),
                job.pool().name(),
                deployment.expression(),
                deployment.zone().getId(),
                schedulesEnabled ? "ENABLED" : "DISABLED",
                retries.schedulerRetryAttempts(),
                retries.schedulerMaxEventAge().toSeconds(),
                ScheduledPayload.forJob(job.id(), job.offsetMinutes()));
    }

    public static List<ExpectedSchedule> of(JobCatalog catalog, RetrySettings retries, boolean schedulesEnabled) {
        return catalog.scheduled().stream()
                .map(job -> of(job, retries, schedulesEnabled))
                .toList();
    }
}
