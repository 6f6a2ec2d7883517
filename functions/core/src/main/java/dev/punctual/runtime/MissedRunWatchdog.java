package dev.punctual.runtime;

import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.job.Job;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.OverdueReports;
import dev.punctual.job.RunHistory;
import dev.punctual.json.Json;
import dev.punctual.observability.EmbeddedMetrics;
import dev.punctual.observability.Metric;
import dev.punctual.observability.StructuredLog;
import dev.punctual.stage.StageFreshness;
import dev.punctual.time.Spread;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * A system job that notices schedules which stopped firing, or never started. For every other job of
 * the catalog it takes the latest occurrence the calculator says was due at least {@link #GRACE} ago;
 * if the ledger has no run item of any kind for it (not even a skip) and the job's cursor has not
 * passed it, the scheduler did not deliver it. The watchdog then reports it once: an {@code Overdue}
 * EMF metric (stage-wide), a WARN line naming the job, and a lifecycle event the stage's alert rule
 * sends to its topic.
 *
 * <p>A job that has never run is watched from the time its schedule went live. The watchdog notes in
 * its own result, which the ledger keeps on its run item, a revision of the catalog (the jobs and their
 * schedules) and since when it has watched that revision; an occurrence of a never-run job counts only
 * if it was due {@link #DEPLOY_MARGIN} after that, so a job deployed a minute ago is not reported, and
 * one whose first occurrence was never delivered is. Its result also notes up to which due time it
 * checked, so the next run reports only occurrences that fell due since: each one once when the
 * watchdog's run commits, and again by the next run when it does not (the report is sent before the note
 * is committed, so it is at least once, never lost; docs/decisions/0010-watchdog-watches-from-go-live.md).
 *
 * <p>Per-entity jobs have no schedule in the catalog: their entities are watched through the ledger's
 * due index ({@link RunHistory#expectedBetween}, decision 0031), which lists the entities whose noted
 * next occurrence fell in the same window and that no completion has moved on; each is confirmed with
 * the ledger and reported once, naming job and entity.
 *
 * <p>Freshness (decision 0042): each job with a bound ({@code freshWithin}, or the stage's default) is
 * stale when its last success, which the completion keeps on its lock item, or its go-live when it never
 * succeeded, is older than the bound. Every run publishes the count, {@code StaleJobs} (stage-wide, in
 * its heartbeat line), and a job that turns stale is reported once: a WARN line and a lifecycle event.
 *
 * <p>Built in: {@link Catalogs} appends it to every team's catalog.
 */
public final class MissedRunWatchdog implements Job {

    public static final String ID = "missed-run-watchdog";

    /** How late a delivery may legitimately be: the scheduler's retries, the run itself, the metric. */
    public static final Duration GRACE = Duration.ofHours(1);

    /**
     * How long after the watchdog first sees a catalog revision its new schedules may still be going
     * live: the code (and so the catalog) updates before the nested stacks that create the schedules.
     */
    public static final Duration DEPLOY_MARGIN = Duration.ofHours(1);

    /** The watchdog's own cadence: without a previous run to read, it checks this far back. */
    static final Duration PERIOD = Duration.ofHours(1);

    /**
     * The longest window the entity watch reads the due index for (decision 0031): a day, 25 hours of 32
     * shards at most, 800 queries. A watchdog silent for longer (alarmed as {@code WatchdogSilent})
     * checks the last day of entities' occurrences only.
     */
    static final Duration ENTITY_WINDOW = Duration.ofDays(1);

    /** The EMF metric counting overdue occurrences, and the reason code of the overdue line. */
    public static final String OVERDUE = "Overdue";

    public static final String NOT_DELIVERED = "NOT_DELIVERED";

    public static final String OVERDUE_MESSAGE = "occurrence overdue";

    /** The EMF metric of the watchdog's heartbeat: 1 per run, dimension stage. */
    public static final String RUNS = "WatchdogRuns";

    /**
     * The EMF metric counting the jobs with no success within their freshness bound (decision 0042): one
     * stage-wide value per run (the count now, 0 when all are fresh), only in a stage with a watched job.
     */
    public static final String STALE_JOBS = "StaleJobs";

    public static final String STALE_MESSAGE = "job stale";

    /** The reason code of a stale job's line and event. */
    public static final String STALE = "STALE";

    private final RunHistory history;
    private final JobCatalog catalog;
    private final OverdueReports reports;
    private final StageFreshness freshness;

    public MissedRunWatchdog(RunHistory history, JobCatalog catalog, OverdueReports reports) {
        this(history, catalog, reports, StageFreshness.NONE);
    }

    /** @param freshness the stage's default freshness bound, for jobs without their own (decision 0042) */
    public MissedRunWatchdog(RunHistory history, JobCatalog catalog, OverdueReports reports, StageFreshness freshness) {
        this.history = history;
        this.catalog = catalog;
        this.reports = reports;
        this.freshness = freshness;
    }

    /** Hourly, at a minute few jobs use; it never catches up, since the next hour checks again. */
    public static JobDefinition definition() {
        return JobDefinition.builder(ID)
                .description("Notices schedules that stopped firing or never started (emits Overdue per job)")
                .schedule("7 * * * *", "UTC")
                .catchUp(CatchUpPolicy.none())
                .maxAttempts(1)
                .job(s -> new MissedRunWatchdog(s.history(), s.catalog(), s.overdue(), s.freshness()))
                .build();
    }

    /** What a run notes for the next one; see the class comment. */
    record Watch(long revision, Instant watchingSince, Instant checkedUntil) {

        Map<String, Object> fields() {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("revision", revision);
            f.put("watching_since", watchingSince.toString());
            f.put("checked_until", checkedUntil.toString());
            return f;
        }

        /** The note of a previous run's summary; empty when there is none or it cannot be read. */
        static Optional<Watch> from(String summary) {
            try {
                if (Json.read(summary) instanceof Map<?, ?> m
                        && m.get("revision") instanceof Number revision
                        && m.get("watching_since") instanceof String since
                        && m.get("checked_until") instanceof String until) {
                    return Optional.of(new Watch(revision.longValue(), Instant.parse(since), Instant.parse(until)));
                }
            } catch (Json.NotJsonException | RuntimeException e) {
                // An older watchdog's summary, or a cut one: start afresh, as on a new stage.
            }
            return Optional.empty();
        }
    }

    @Override
    public JobResult run(JobContext context) {
        Instant dueBy = context.occurrence().minus(GRACE);
        Optional<Watch> previous = previous(context.jobId());
        long revision = revision(catalog);
        Instant since = previous.filter(w -> w.revision() == revision)
                .map(Watch::watchingSince)
                .orElse(context.clock().instant());
        Instant checkedFrom = previous.map(Watch::checkedUntil).orElse(dueBy.minus(PERIOD));
        List<String> overdue = new ArrayList<>();
        int checked = 0;
        // Entities' schedules are not the catalog's: they are watched through the due index, below.
        for (JobDefinition job : catalog.scheduled()) {
            if (job.id().equals(context.jobId())) {
                continue;
            }
            checked++;
            // A spread job's schedule fires its offset after each occurrence (decision 0035): its window
            // trails the others' by that offset, so it gets the same grace; a constant lag per job keeps
            // its windows contiguous, each occurrence falling in exactly one check.
            Duration lag = Duration.ofMinutes(job.offsetMinutes());
            Optional<Instant> expected =
                    job.occurrences().previous(dueBy.minus(lag).plusMillis(1));
            if (expected.isPresent()
                    && expected.get().isAfter(checkedFrom.minus(lag))
                    && notDelivered(job.id(), expected.get(), since)) {
                overdue.add(job.id());
                report(context, job, expected.get());
            }
        }
        EntityWatch entities = watchEntities(context, checkedFrom, dueBy);
        // The previous run's occurrence (its checked_until is that less GRACE): a job is reported stale by
        // the run whose window (previous occurrence, this one] holds the moment its bound ran out.
        Optional<Instant> lastLook = previous.map(w -> w.checkedUntil().plus(GRACE));
        FreshnessWatch fresh = watchFreshness(context, since, lastLook);
        heartbeat(context, checked, overdue.size() + entities.overdue(), fresh);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("checked", checked);
        summary.put("overdue", overdue.size() + entities.overdue());
        if (fresh.watched() > 0) {
            summary.put("fresh_watched", fresh.watched());
            summary.put("stale", fresh.stale());
        }
        if (entities.watched()) {
            summary.put("entity_candidates", entities.candidates());
            summary.put("entities_overdue", entities.overdue());
        }
        summary.putAll(new Watch(revision, since, dueBy.isAfter(checkedFrom) ? dueBy : checkedFrom).fields());
        return new JobResult(summary);
    }

    /** What the freshness watch found: jobs with a bound, and those without a success within it. */
    record FreshnessWatch(int watched, int stale) {}

    /**
     * Freshness (decision 0042): for each job with a bound (its own {@code freshWithin}, else the stage's
     * default), one read of its lock item for the last success the completion noted there. Stale when that
     * success, or the job's go-live ({@code since}) when it never succeeded, is older than the bound at this
     * run's occurrence. Judged at the occurrence, not the clock, so consecutive runs' windows meet: each
     * job that turns stale is reported once (a WARN line and a lifecycle event), by the run whose window
     * holds the moment its bound ran out, or by the first run, which has no window before it.
     */
    private FreshnessWatch watchFreshness(JobContext context, Instant since, Optional<Instant> lastLook) {
        Instant at = context.occurrence();
        int watched = 0;
        int stale = 0;
        for (JobDefinition job : catalog.scheduled()) {
            Optional<Duration> bound = job.freshnessBound(freshness);
            if (job.id().equals(context.jobId()) || bound.isEmpty()) {
                continue;
            }
            watched++;
            Optional<Instant> last = history.lastSuccess(job.id());
            Instant reference = last.orElse(since);
            Instant ranOut = reference.plus(bound.get());
            if (!ranOut.isBefore(at)) {
                continue;
            }
            stale++;
            if (lastLook.isEmpty() || ranOut.isAfter(lastLook.get())) {
                reportStale(context, job, reference, last.isPresent(), bound.get(), Duration.between(reference, at));
            }
        }
        return new FreshnessWatch(watched, stale);
    }

    /** A WARN line naming the job, and the lifecycle event the stage's rule sends to its topic. */
    private void reportStale(
            JobContext context, JobDefinition job, Instant reference, boolean succeeded, Duration bound, Duration age) {
        StructuredLog log = context.log().log();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", context.flags().stage());
        fields.put("job", job.id());
        fields.put(succeeded ? "last_success" : "watching_since", reference.toString());
        fields.put("fresh_within", bound.toString());
        fields.put("age", age.toString());
        fields.put("reason", STALE);
        log.warn(STALE_MESSAGE, fields);
        reports.stale(job.id(), reference.atZone(job.schedule().zone()), succeeded, bound, age, log);
    }

    /** What the entity watch found: candidates the index listed, and those confirmed overdue. */
    record EntityWatch(boolean watched, int candidates, int overdue) {}

    /**
     * Per-entity jobs (decision 0031): the due index lists the entities whose expected occurrence fell
     * in the window and that no completion has moved on since; each is confirmed by the ledger (the
     * cursor, then the run item: any record, a skip too, means it was delivered). The window is the
     * jobs' window, so each expected occurrence is reported once. Reads grow with the candidates, not
     * with the entities.
     */
    private EntityWatch watchEntities(JobContext context, Instant checkedFrom, Instant dueBy) {
        if (catalog.jobs().stream().noneMatch(JobDefinition::isPerEntity) || !dueBy.isAfter(checkedFrom)) {
            return new EntityWatch(false, 0, 0);
        }
        // A spread entity's delivery comes its offset after the occurrence the index notes (decision 0030):
        // the entities' window trails the jobs' by the longest spread of the catalog, so a spread entity
        // gets the same grace as any job. A constant lag keeps the windows contiguous: each noted
        // occurrence still falls in exactly one check.
        Duration spread = longestSpread();
        Instant until = dueBy.minus(spread);
        Instant from = checkedFrom.minus(spread);
        Instant after = from.isBefore(until.minus(ENTITY_WINDOW)) ? until.minus(ENTITY_WINDOW) : from;
        int candidates = 0;
        int overdue = 0;
        for (RunHistory.ExpectedOccurrence expected : history.expectedBetween(after, until)) {
            candidates++;
            Optional<JobDefinition> job = perEntityJob(expected.ledgerId());
            if (job.isPresent() && entityNotDelivered(expected)) {
                overdue++;
                String entity = expected.ledgerId().substring(job.get().id().length() + 1);
                reportEntity(context, job.get(), entity, expected.occurrence());
            }
        }
        return new EntityWatch(true, candidates, overdue);
    }

    /** The widest window over which a per-entity job of the catalog spreads its entities; zero if none does. */
    private Duration longestSpread() {
        return catalog.jobs().stream()
                .filter(JobDefinition::isPerEntity)
                .flatMap(job -> job.perEntity().spread().stream())
                .map(Spread::window)
                .max(Duration::compareTo)
                .orElse(Duration.ZERO);
    }

    /**
     * The per-entity job of a ledger id {@code job:entity} (a job id never holds {@code :}); empty for a
     * job no longer in the catalog, whose deliveries are refused anyway ({@code UNKNOWN_JOB}).
     */
    private Optional<JobDefinition> perEntityJob(String ledgerId) {
        int colon = ledgerId.indexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        return catalog.find(ledgerId.substring(0, colon)).filter(JobDefinition::isPerEntity);
    }

    private boolean entityNotDelivered(RunHistory.ExpectedOccurrence expected) {
        Optional<Instant> cursor = history.cursor(expected.ledgerId());
        if (cursor.isPresent() && !cursor.get().isBefore(expected.occurrence())) {
            return false;
        }
        // A deleted entity keeps its last note in the index; its schedule is gone, so nothing is missed.
        return !history.recorded(expected.ledgerId(), expected.occurrence())
                && !history.entityDeleted(expected.ledgerId());
    }

    private Optional<Watch> previous(String self) {
        return history.cursor(self)
                .flatMap(last -> history.resultSummary(self, last))
                .flatMap(Watch::from);
    }

    /**
     * A job with a cursor is overdue when the cursor has not passed the occurrence and it has no run
     * item; a job that never ran only when the occurrence fell due after its schedule can have gone live.
     */
    private boolean notDelivered(String job, Instant expected, Instant since) {
        Optional<Instant> cursor = history.cursor(job);
        if (cursor.isPresent() && !cursor.get().isBefore(expected)) {
            return false;
        }
        if (cursor.isEmpty() && expected.isBefore(since.plus(DEPLOY_MARGIN))) {
            return false;
        }
        return !history.recorded(job, expected);
    }

    /**
     * CRC-32 of every job's id, expression, zone and spread offset, in catalog order: changes when a
     * schedule or where it fires does.
     */
    static long revision(JobCatalog catalog) {
        CRC32 crc = new CRC32();
        for (JobDefinition job : catalog.jobs()) {
            // A spread job's offset too: its watched window trails by it (decision 0035).
            String line = job.id() + " " + job.schedule().expression() + " "
                    + job.schedule().zone().getId() + (job.offsetMinutes() == 0 ? "" : " +" + job.offsetMinutes())
                    + "\n";
            crc.update(line.getBytes(StandardCharsets.UTF_8));
        }
        return crc.getValue();
    }

    /** Stage-wide {@code Overdue}, and the job's own when its definition opted in to per-job metrics. */
    private void report(JobContext context, JobDefinition job, Instant expected) {
        StructuredLog log = overdueLine(context, job, Optional.empty(), expected);
        reports.overdue(job.id(), expected.atZone(job.schedule().zone()), NOT_DELIVERED, log);
    }

    /**
     * An entity's overdue occurrence: the stage-wide {@code Overdue} (and the job's when it opted in; never
     * one per entity), a WARN line and a lifecycle event naming job and entity. The index keeps no zone,
     * so the occurrence is given in UTC.
     */
    private void reportEntity(JobContext context, JobDefinition job, String entity, Instant expected) {
        StructuredLog log = overdueLine(context, job, Optional.of(entity), expected);
        reports.overdue(job.id(), entity, expected.atZone(ZoneOffset.UTC), NOT_DELIVERED, log);
    }

    /** The WARN line with the {@code Overdue} metric; the entity's key only for an entity's occurrence. */
    private static StructuredLog overdueLine(
            JobContext context, JobDefinition job, Optional<String> entity, Instant expected) {
        StructuredLog log = context.log().log();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", context.flags().stage());
        fields.put("job", job.id());
        entity.ifPresent(e -> fields.put("entity", e));
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
        return log;
    }

    /**
     * The watchdog's own heartbeat: one line per run, so a missing run is itself alarmed. In a stage with a
     * job watched for freshness it also carries {@code StaleJobs}, the count now (0 too, so the alarm on it
     * returns to OK when the jobs are fresh again): one stage-wide metric, never one per job.
     */
    private static void heartbeat(JobContext context, int checked, int overdue, FreshnessWatch fresh) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", context.flags().stage());
        fields.put("checked", checked);
        fields.put("overdue", overdue);
        List<Metric> metrics = new ArrayList<>(List.of(Metric.count(RUNS, 1)));
        if (fresh.watched() > 0) {
            fields.put("stale", fresh.stale());
            metrics.add(Metric.count(STALE_JOBS, fresh.stale()));
        }
        context.log()
                .log()
                .metricSets(
                        StructuredLog.Level.INFO,
                        "watchdog checked",
                        fields,
                        Map.of("stage", context.flags().stage()),
                        List.of(EmbeddedMetrics.Directive.of(List.of("stage"), metrics)));
    }
}
