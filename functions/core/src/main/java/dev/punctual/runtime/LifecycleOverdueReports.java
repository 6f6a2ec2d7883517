package dev.punctual.runtime;

import dev.punctual.events.LifecycleEvent;
import dev.punctual.events.LifecyclePublisher;
import dev.punctual.job.OverdueReports;
import dev.punctual.observability.StructuredLog;
import java.time.ZonedDateTime;

/**
 * The watchdog's reports, published as {@link LifecycleEvent.OccurrenceOverdue} and {@link LifecycleEvent.JobStale}
 * events.
 */
public record LifecycleOverdueReports(LifecyclePublisher events, String stage) implements OverdueReports {

    @Override
    public void overdue(String job, ZonedDateTime occurrence, String reason, StructuredLog invocationLog) {
        events.publish(new LifecycleEvent.OccurrenceOverdue(stage, job, occurrence, reason), invocationLog);
    }

    @Override
    public void overdue(
            String job, String entity, ZonedDateTime occurrence, String reason, StructuredLog invocationLog) {
        events.publish(new LifecycleEvent.OccurrenceOverdue(stage, job, entity, occurrence, reason), invocationLog);
    }

    @Override
    public void stale(
            String job,
            ZonedDateTime since,
            boolean succeeded,
            java.time.Duration freshWithin,
            java.time.Duration age,
            StructuredLog invocationLog) {
        events.publish(new LifecycleEvent.JobStale(stage, job, since, succeeded, freshWithin, age), invocationLog);
    }
}
