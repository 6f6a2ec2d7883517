package dev.punctual.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One scheduled occurrence of one job: the idempotency key of a run. The time is the scheduler's nominal
 * {@code scheduled-time}, never the per-attempt execution id, so every redelivery maps to the same key.
 */
public record RunKey(String jobId, Instant scheduledTime) {
    public RunKey {
        Ids.require(jobId, "jobId");
        // Stored as epoch millis: finer precision would not survive a round trip through the table.
        scheduledTime = Objects.requireNonNull(scheduledTime, "scheduledTime").truncatedTo(ChronoUnit.MILLIS);
    }
}
