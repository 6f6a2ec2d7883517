package dev.punctual.runtime;

import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.job.Job;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.RunHistory;
import dev.punctual.observability.EmbeddedMetrics;
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

    /** The EMF metric counting overdue occurrences, and the reason code of the overdue line. */
    public static final String OVERDUE = "Overdue";

    public static final String NOT_DELIVERED = "NOT_DELIVERED";

    public static final String OVERDUE_MESSAGE = "occurrence overdue";

    /** The EMF metric of the watchdog's heartbeat: 1 per run, dimension stage. */
    public static final String RUNS = "WatchdogRuns";

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
                report(context, job, expected.get());
            }
        }
        heartbeat(context, checked, overdue.size());
        return JobResult.of("checked", checked, "overdue", overdue);
    }

    private boolean notDelivered(String job, Instant expected) {
        Optional<Instant> cursor = history.cursor(job);
        if (cursor.isEmpty() || !cursor.get().isBefore(expected)) {
            return false;
        }
        return !history.recorded(job, expected);
    }

    /** Stage-wide {@code Overdue}, and the job's own when its definition opted in to per-job metrics. */
    private static void report(JobContext context, JobDefinition job, Instant expected) {
        StructuredLog log = context.log().log();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", context.flags().stage());
        fields.put("job", job.id());
        fields.put("expected", expected.toString());
        fields.put("reason", NOT_DELIVERED);
        Map<String, String> dimensions = new LinkedHashMap<>();
        dimensions.put("stage", context.flags().stage());
        dimensions.put("job", job.id());
        List<List<String>> sets =
                job.perJobMetrics() ? List.of(List.of("stage"), List.of("stage", "job")) : List.of(List.of("stage"));
        log.metricSets(
                StructuredLog.Level.WARN,
                OVERDUE_MESSAGE,
                fields,
                dimensions,
                List.of(new EmbeddedMetrics.Directive(sets, List.of(Metric.count(OVERDUE, 1)))));
    }

    /** The watchdog's own heartbeat: one line per run, so a missing run is itself alarmed. */
    private static void heartbeat(JobContext context, int checked, int overdue) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", context.flags().stage());
        fields.put("checked", checked);
        fields.put("overdue", overdue);
        context.log()
                .log()
                .metricSets(
                        StructuredLog.Level.INFO,
                        "watchdog checked",
                        fields,
                        Map.of("stage", context.flags().stage()),
                        List.of(EmbeddedMetrics.Directive.of(List.of("stage"), List.of(Metric.count(RUNS, 1)))));
    }
}
