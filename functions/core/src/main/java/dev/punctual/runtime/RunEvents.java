package dev.punctual.runtime;

import dev.punctual.events.LifecycleEvent;
import dev.punctual.events.LifecyclePublisher;
import dev.punctual.job.JobDefinition;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.OccurrenceOutcome;
import dev.punctual.outcome.Reason;

/**
 * The lifecycle event of an occurrence that ran: {@code RunSucceeded} when its completion committed,
 * {@code RunFailed} when the job threw or its lease was lost. Refusals and skips ran nothing and send
 * none (their line and metrics say enough); the missed-range event is the dispatcher's, at planning.
 * Each names the entity of a per-entity job's occurrence, as its outcome line does.
 */
final class RunEvents implements OccurrenceListener {

    private final LifecyclePublisher events;

    RunEvents(LifecyclePublisher events) {
        this.events = events;
    }

    @Override
    public void ended(JobDefinition job, OccurrenceOutcome o, StructuredLog log) {
        if (o.reason() == Reason.OK) {
            events.publish(
                    new LifecycleEvent.RunSucceeded(
                            o.stage(), o.job(), o.occurrence(), o.trigger(), o.fence(), o.durationMs(), o.entity()),
                    log);
        } else if (o.reason() == Reason.JOB_ERROR || o.reason() == Reason.FENCED) {
            events.publish(failed(job, o), log);
        }
    }

    /** Only a scheduled delivery with attempts left is retried (by Lambda; see the handler's RetryPolicy). */
    private static LifecycleEvent failed(JobDefinition job, OccurrenceOutcome o) {
        int max = job.maxAttempts();
        return new LifecycleEvent.RunFailed(
                o.stage(),
                o.job(),
                o.occurrenceLocal(),
                o.trigger(),
                o.reason().wire(),
                o.error(),
                o.attempt(),
                max,
                // The same test that decides the paging FinalFail metric (OutcomeLog).
                o.finalFailure(max),
                o.entity());
    }
}
