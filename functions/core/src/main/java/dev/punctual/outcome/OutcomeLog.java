package dev.punctual.outcome;

import dev.punctual.observability.EmbeddedMetrics;
import dev.punctual.observability.Metric;
import dev.punctual.observability.StructuredLog;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the one line per occurrence outcome: the fields operators filter on and, on the same line,
 * the EMF metrics (namespace {@code Punctual}). The saved Logs Insights queries of the CDK app use
 * exactly the field names listed in {@link #FIELDS}.
 *
 * <p>The metrics are stage-wide, so their number does not grow with the catalog: {@link #METRICS}
 * under {@code [stage]}, {@link #OCCURRENCES} under {@code [stage, outcome, reason]} and
 * {@link #FINAL_FAIL} (what the stage's {@code Failures} alarm pages on) under {@code [stage]}. A job whose
 * definition opts in ({@code perJobMetrics}) also gets {@link #METRICS} under {@code [stage, job]}
 * (docs/decisions/0009-stage-wide-metrics.md); per-job insight otherwise comes from the line itself
 * (saved queries, Contributor Insights).
 */
public final class OutcomeLog {

    public static final String MESSAGE = "occurrence outcome";

    /** Every field of an outcome line besides the Powertools keys; the saved queries use only these. */
    public static final List<String> FIELDS = List.of(
            "stage",
            "job",
            "occurrence",
            "occurrence_local",
            "trigger",
            "outcome",
            "reason",
            "attempt",
            "fence",
            "lateness_ms",
            "duration_ms",
            "catch_up_count",
            "missed_count",
            "result",
            "error",
            "detail",
            "entity");

    /** The metric names on an outcome line. */
    public static final List<String> METRICS =
            List.of("Pass", "Skip", "Fail", "DurationMs", "LatenessMs", "CatchUp", "Missed", "LockBusy");

    /** One per outcome line, counted by outcome and reason code for the whole stage. */
    public static final String OCCURRENCES = "Occurrences";

    /**
     * 1 on the line of a failure no retry follows ({@link OccurrenceOutcome#finalFailure}), 0 otherwise;
     * stage-wide only, also for a job with metrics of its own. {@code Fail} counts every failed attempt,
     * the retried ones too.
     */
    public static final String FINAL_FAIL = "FinalFail";

    /** The dimension sets of {@link #METRICS}: the stage's, and the job's when it opted in. */
    public static final List<String> STAGE = List.of("stage");

    public static final List<String> STAGE_JOB = List.of("stage", "job");

    /** The dimension set of {@link #OCCURRENCES}. */
    public static final List<String> STAGE_OUTCOME_REASON = List.of("stage", "outcome", "reason");

    private OutcomeLog() {}

    /**
     * The line with stage-wide metrics only, for an occurrence that has one attempt (so a failure is
     * final): what a job's own tests and the saved queries' checks need.
     */
    public static void write(StructuredLog log, OccurrenceOutcome o) {
        write(log, o, false, 1);
    }

    /**
     * @param perJobMetrics the job's definition opted in to metrics of its own (billed per job)
     * @param maxAttempts the job's {@code maxAttempts}, which decides whether a failure is final
     */
    public static void write(StructuredLog log, OccurrenceOutcome o, boolean perJobMetrics, int maxAttempts) {
        StructuredLog.Level level = o.verdict() == Verdict.FAIL ? StructuredLog.Level.ERROR : StructuredLog.Level.INFO;
        Map<String, String> dimensions = new LinkedHashMap<>();
        dimensions.put("stage", o.stage());
        dimensions.put("job", o.job());
        dimensions.put("outcome", o.verdict().name());
        dimensions.put("reason", o.reason().wire());
        log.metricSets(level, MESSAGE, fields(o), dimensions, directives(o, perJobMetrics, maxAttempts));
    }

    static List<EmbeddedMetrics.Directive> directives(OccurrenceOutcome o, boolean perJobMetrics, int maxAttempts) {
        List<List<String>> sets = perJobMetrics ? List.of(STAGE, STAGE_JOB) : List.of(STAGE);
        return List.of(
                new EmbeddedMetrics.Directive(sets, metrics(o)),
                EmbeddedMetrics.Directive.of(STAGE_OUTCOME_REASON, List.of(Metric.count(OCCURRENCES, 1))),
                EmbeddedMetrics.Directive.of(
                        STAGE, List.of(Metric.count(FINAL_FAIL, o.finalFailure(maxAttempts) ? 1 : 0))));
    }

    static Map<String, Object> fields(OccurrenceOutcome o) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("stage", o.stage());
        f.put("job", o.job());
        f.put("occurrence", o.occurrence().toString());
        f.put("occurrence_local", DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(o.occurrenceLocal()));
        f.put("trigger", o.trigger());
        f.put("outcome", o.verdict().name());
        f.put("reason", o.reason().wire());
        f.put("attempt", o.attempt());
        f.put("fence", o.fence());
        f.put("lateness_ms", o.latenessMs());
        f.put("duration_ms", o.durationMs());
        f.put("catch_up_count", o.catchUpCount());
        f.put("missed_count", o.missedCount());
        f.put("result", o.result());
        f.put("error", o.error());
        f.put("detail", o.detail());
        f.put("entity", o.entity());
        return f;
    }

    private static List<Metric> metrics(OccurrenceOutcome o) {
        return List.of(
                Metric.count("Pass", o.verdict() == Verdict.PASS ? 1 : 0),
                Metric.count("Skip", o.verdict() == Verdict.SKIP ? 1 : 0),
                Metric.count("Fail", o.verdict() == Verdict.FAIL ? 1 : 0),
                Metric.millis("DurationMs", o.durationMs()),
                Metric.millis("LatenessMs", o.latenessMs()),
                Metric.count("CatchUp", o.catchUpCount()),
                Metric.count("Missed", o.missedCount()),
                Metric.count("LockBusy", o.reason() == Reason.LOCK_BUSY ? 1 : 0));
    }
}
