package dev.punctual.job;

import dev.punctual.observability.StructuredLog;
import java.time.ZonedDateTime;

/**
 * Where a job that watches the others (the built-in missed-run watchdog) reports an occurrence that was
 * due and never delivered. The runtime turns a report into a lifecycle event, which the stage's alert
 * rule sends to its topic naming the job; best effort, like every lifecycle event.
 */
@FunctionalInterface
public interface OverdueReports {

    /**
     * @param occurrence the occurrence in the job's zone
     * @param reason a reason code
     * @param invocationLog the reporting invocation's log: a failure to deliver the report is said there,
     *     with the invocation's request id
     */
    void overdue(String job, ZonedDateTime occurrence, String reason, StructuredLog invocationLog);

    /**
     * An entity's occurrence of a per-entity job that was due and never delivered (decision 0031). A
     * report port without entities reports the job's.
     *
     * @param occurrence the occurrence in the entity's zone
     */
    default void overdue(
            String job, String entity, ZonedDateTime occurrence, String reason, StructuredLog invocationLog) {
        overdue(job, occurrence, reason, invocationLog);
    }

    /**
     * A job with no success within its freshness bound (decision 0042), reported once when it turns stale.
     *
     * @param since its last success, or its go-live when it never succeeded ({@code succeeded} false), in the
     *     job's zone
     * @param freshWithin the bound it is held to
     * @param age how long since {@code since}, at the watchdog's occurrence
     */
    default void stale(
            String job,
            ZonedDateTime since,
            boolean succeeded,
            java.time.Duration freshWithin,
            java.time.Duration age,
            StructuredLog invocationLog) {}

    /** For tools and tests without a bus. */
    OverdueReports NONE = (job, occurrence, reason, invocationLog) -> {};
}
