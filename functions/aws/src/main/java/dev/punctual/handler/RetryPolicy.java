package dev.punctual.handler;

import dev.punctual.PunctualException;
import dev.punctual.job.JobCatalog;
import dev.punctual.outcome.Retries;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.OccurrenceReport;
import java.util.List;

/**
 * When a scheduled occurrence failed and has attempts left, the handler throws after recording it, so
 * that Lambda's async retries deliver the same scheduled time again (the run item counts the attempt).
 * Invalid payloads, skips and manual runs never throw: a retry would not change them.
 */
final class RetryPolicy {

    private RetryPolicy() {}

    static void throwIfRetryable(InvocationResult result, JobCatalog catalog) {
        if (!"scheduled".equals(result.kind())) {
            return;
        }
        List<OccurrenceReport> retryable = result.occurrences().stream()
                .filter(o -> Retries.willRetry(
                        o.reason(), true, o.attempt(), catalog.require(o.job()).maxAttempts()))
                .toList();
        if (!retryable.isEmpty()) {
            throw new RetryableRunFailure(retryable);
        }
    }

    /** Thrown only to hand the invocation to Lambda's retry; everything is already recorded. */
    static final class RetryableRunFailure extends PunctualException {
        private static final long serialVersionUID = 1L;

        RetryableRunFailure(List<OccurrenceReport> failed) {
            super("retrying: "
                    + failed.stream()
                            .map(o -> o.job() + "@" + o.occurrence() + " "
                                    + o.reason().wire() + " attempt " + o.attempt())
                            .toList());
        }
    }
}
