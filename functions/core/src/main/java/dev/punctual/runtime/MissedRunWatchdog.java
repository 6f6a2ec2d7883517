package dev.punctual.runtime;

import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.job.Job;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.RunHistory;
import dev.punctual.observability.Metric;
import dev.punctual.observability.StructuredLog;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A system job that notices schedules which stopped firing. For every other job of the catalog it
 * takes the latest occurrence the calculator says was due at least {@link #GRACE} ago and checks the
 * ledger: if that occurrence has no run item of any kind (not even a skip) and the job's cursor has
 * not passed it, the scheduler did not deliver it, and the watchdog emits the EMF metric
 * {@code Overdue} for the job. CloudWatch cannot watch a weekly job for silence (its evaluation range
 * ends at 7 days); this hourly job can, and its own silence is watched by an ordinary alarm.
 *
 * <p>A job that has never run (no cursor and no run item) is left alone: the watchdog cannot tell a
 * missed first occurrence from a job deployed after it.
 *
 * <p>Built in: {@link Catalogs} appends it to every team's catalog.
 */
public final class MissedRunWatchdog implements Job {

    public static final String ID = "missed-run-watchdog";

    /** How late a delivery may legitimately be: the scheduler's retries, the run itself, the metric. */
    public static final Duration GRACE = Duration.ofHours(1);

    private final RunHistory history;
    private final JobCatalog catalog;

    public MissedRunWatchdog(RunHistory history, JobCatalog catalog) {
        this.history = history;
        this.catalog = catalog;
    }

    /** Hourly, at a minute few jobs use; it never catches up, since the next hour checks again. */
    public static JobDefinition definition() {
        return JobDefinition.builder(ID)
                .description("Notices schedules that stopped firing (emits Overdue per job)")
                .schedule("7 * * * *", "UTC")
                .catchUp(CatchUpPolicy.none())
                .maxAttempts(1)
                .job(s -> new MissedRunWatchdog(s.history(), s.catalog()))
                .build();
    }

    @Override
    public JobResult run(JobContext context) {
        Instant dueBy = context.occurrence().minus(GRACE);
        List<String> overdue = new ArrayList<>();
        int checked = 0;
        for (JobDefinition job : catalog.jobs()) {
            if (job.id().equals(context.jobId())) {
                continue;
            }
            checked++;
            Optional<Instant> expected = OccurrenceCalculator.of(job.schedule()).previous(dueBy.plusMillis(1));
            if (expected.isPresent() && notDelivered(job.id(), expected.get())) {
                overdue.add(job.id());
                report(context, job.id(), expected.get());
            }
        }
        return JobResult.of("checked", checked, "overdue", overdue);
    }

    private boolean notDelivered(String job, Instant expected) {
        Optional<Instant> cursor = history.cursor(job);
        if (cursor.isEmpty() || !cursor.get().isBefore(expected)) {
            return false;
        }
        return !history.recorded(job, expected);
    }

    private static void report(JobContext context, String job, Instant expected) {
        StructuredLog log = context.log().log();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", context.flags().stage());
        fields.put("job", job);
        fields.put("expected", expected.toString());
        fields.put("reason", "NOT_DELIVERED");
        Map<String, String> dimensions = new LinkedHashMap<>();
        dimensions.put("stage", context.flags().stage());
        dimensions.put("job", job);
        log.metrics(
                StructuredLog.Level.WARN,
                "occurrence overdue",
                fields,
                dimensions,
                List.of(Metric.count("Overdue", 1)));
    }
}
