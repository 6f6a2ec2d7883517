package dev.punctual.infra;

import dev.punctual.job.JobCatalog;
import java.util.List;
import software.amazon.awscdk.services.logs.CfnQueryDefinition;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.constructs.Construct;

/**
 * The Logs Insights queries operators start from, saved per stage over every pool's log group. They
 * read the fields of the outcome line ({@code dev.punctual.outcome.OutcomeLog.FIELDS}); a test
 * keeps them to those fields, and docs/queries.md shows the same text.
 *
 * <p>{@code job-timeline} is one job's occurrences, so its filter names a job. No job is known to every
 * team's stage, so Punctual names none of its own: a stage saves the query for the first job of the
 * catalog it is built from (the team's first job; the built-in watchdog only in a catalog of no other
 * job), so that it shows real rows as saved and an operator edits the one id for another job. {@link
 * #ALL} and docs/queries.md show {@link #JOB} in that place; {@link #of} is what a stage saves. The CLI
 * removes that job filter and adds its own ({@code punctual logs JOB}, {@code verify --activate}).
 */
public final class SavedQueries {

    /** A saved query: its name in the console (under {@code punctual/<stage>/}) and its text. */
    public record SavedQuery(String name, String query) {}

    private static final String OUTCOMES = "filter message = \"occurrence outcome\"";

    /** The name of the query whose filter names a job. */
    public static final String JOB_TIMELINE = "job-timeline";

    /** What {@link #ALL} and docs/queries.md show where a stage's {@code job-timeline} names its catalog's first job. */
    public static final String JOB = "JOB";

    /** Every saved query, as docs/queries.md shows it: {@code job-timeline} names {@link #JOB}, see {@link #of}. */
    public static final List<SavedQuery> ALL = queries(JOB);

    private SavedQueries() {}

    /** The queries a stage built from the catalog saves: {@link #ALL}, {@code job-timeline} for its first job. */
    public static List<SavedQuery> of(JobCatalog catalog) {
        return queries(
                catalog.jobs().isEmpty() ? JOB : catalog.jobs().getFirst().id());
    }

    private static List<SavedQuery> queries(String timelineJob) {
        return List.of(
                new SavedQuery(
                        "failures",
                        "fields @timestamp, job, occurrence, occurrence_local, trigger, reason, attempt, fence, error\n"
                                + "| " + OUTCOMES + " and outcome = \"FAIL\"\n"
                                + "| sort @timestamp desc\n"
                                + "| limit 100"),
                new SavedQuery(
                        JOB_TIMELINE,
                        "fields @timestamp, occurrence, occurrence_local, trigger, outcome, reason, attempt, fence,"
                                + " lateness_ms, duration_ms\n"
                                + "| " + OUTCOMES + " and job = \"" + timelineJob + "\"\n"
                                + "| sort occurrence desc\n"
                                + "| limit 200"),
                new SavedQuery(
                        "skips-by-reason",
                        OUTCOMES + " and outcome = \"SKIP\"\n" + "| stats count(*) as skips by job, reason, bin(1h)"),
                new SavedQuery(
                        "slowest-runs",
                        "fields @timestamp, job, occurrence, duration_ms, lateness_ms, fence\n"
                                + "| " + OUTCOMES + " and outcome = \"PASS\"\n"
                                + "| sort duration_ms desc\n"
                                + "| limit 50"),
                new SavedQuery(
                        "catch-up-and-missed",
                        "fields @timestamp, job, occurrence, trigger, outcome, catch_up_count, missed_count\n"
                                + "| " + OUTCOMES + " and (catch_up_count > 0 or missed_count > 0)\n"
                                + "| sort @timestamp desc\n"
                                + "| limit 200"),
                new SavedQuery(
                        "lock-busy",
                        OUTCOMES + " and reason = \"LOCK_BUSY\"\n" + "| stats count(*) as busy by job, bin(1h)"));
    }

    /** The query's name in the console and in {@code DescribeQueryDefinitions}: {@code punctual/<stage>/<name>}. */
    public static String fullName(String stage, SavedQuery query) {
        return "punctual/" + stage + "/" + query.name();
    }

    /** Saves every query for the stage built from the catalog ({@link #of}), over the given log groups. */
    public static void add(Construct scope, String stage, JobCatalog catalog, List<ILogGroup> logGroups) {
        for (SavedQuery saved : of(catalog)) {
            // The L1 construct takes the query text as written; the L2 QueryString builder would
            // re-assemble it from parts and the text in docs/queries.md would drift from the deployed one.
            CfnQueryDefinition.Builder.create(scope, "Query-" + saved.name())
                    .name(fullName(stage, saved))
                    .queryString(saved.query())
                    .logGroupNames(
                            logGroups.stream().map(ILogGroup::getLogGroupName).toList())
                    .build();
        }
    }
}
