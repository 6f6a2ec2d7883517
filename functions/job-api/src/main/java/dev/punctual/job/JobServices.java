package dev.punctual.job;

import dev.punctual.stage.StageFreshness;
import java.time.Clock;
import java.util.Objects;

/**
 * What the runtime gives a job factory. A job's own clients and tables come from its catalog's
 * provider (see {@link CatalogProvider}), not from here.
 *
 * @param clock the runtime's clock
 * @param catalog the catalog the runtime runs, built-in jobs included
 * @param history what the ledger recorded, read only
 * @param overdue where the watchdog reports undelivered occurrences and stale jobs (a lifecycle event in a
 *     deployed stage)
 * @param freshness the stage's default freshness bound (decision 0042), from the function's environment
 */
public record JobServices(
        Clock clock, JobCatalog catalog, RunHistory history, OverdueReports overdue, StageFreshness freshness) {

    public JobServices {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(overdue, "overdue");
        Objects.requireNonNull(freshness, "freshness");
    }

    /** Without a stage default for freshness: only jobs with their own bound are watched (before 0042). */
    public JobServices(Clock clock, JobCatalog catalog, RunHistory history, OverdueReports overdue) {
        this(clock, catalog, history, overdue, StageFreshness.NONE);
    }

    /** Without a place to report overdue occurrences: tools that never run the watchdog for real. */
    public JobServices(Clock clock, JobCatalog catalog, RunHistory history) {
        this(clock, catalog, history, OverdueReports.NONE);
    }
}
