package dev.punctual.runtime;

import dev.punctual.job.JobDefinition;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.OccurrenceOutcome;

/**
 * Told once of every occurrence an invocation carries out or refuses (a dry run carries out none), in
 * the order they end. The outcome line with its metrics ({@link OutcomeLine}) and the lifecycle events
 * ({@link RunEvents}) subscribe in every runtime; the CLI adds its replay progress for one invocation
 * ({@link PunctualRuntime#handle(String, Deadline, StructuredLog, OccurrenceListener)}).
 */
@FunctionalInterface
public interface OccurrenceListener {

    /**
     * @param job the occurrence's job, as the catalog defines it
     * @param outcome what happened, as the outcome line shows it
     * @param log the invocation's log, with its request id
     */
    void ended(JobDefinition job, OccurrenceOutcome outcome, StructuredLog log);
}
