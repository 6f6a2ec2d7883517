package dev.punctual.runtime;

import dev.punctual.events.LifecycleEvent;
import dev.punctual.events.LifecyclePublisher;
import dev.punctual.job.OverdueReports;
import dev.punctual.observability.StructuredLog;
import java.time.ZonedDateTime;

/** The watchdog's overdue reports, published as {@link LifecycleEvent.OccurrenceOverdue} events. */
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
}
