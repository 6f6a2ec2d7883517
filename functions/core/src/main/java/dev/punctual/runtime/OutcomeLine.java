package dev.punctual.runtime;

import dev.punctual.job.JobDefinition;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.OccurrenceOutcome;
import dev.punctual.outcome.OutcomeLog;

/** The outcome line, which is also the EMF document of its metrics: one per occurrence. */
final class OutcomeLine implements OccurrenceListener {

    @Override
    public void ended(JobDefinition job, OccurrenceOutcome outcome, StructuredLog log) {
        OutcomeLog.write(log, outcome, job.perJobMetrics(), job.maxAttempts());
    }
}
