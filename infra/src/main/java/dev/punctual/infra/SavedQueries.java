package dev.punctual.infra;

import java.util.List;
import software.amazon.awscdk.services.logs.CfnQueryDefinition;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.constructs.Construct;

/**
 * The Logs Insights queries operators start from, saved per stage over every pool's log group. They
 * read the fields of the outcome line ({@code dev.punctual.observability.OutcomeLog.FIELDS}); a test
 * keeps them to those fields, and docs/queries.md shows the same text.
 */
public final class SavedQueries {

    /** A saved query: its name in the console (under {@code punctual/<stage>/}) and its text. */
    public record SavedQuery(String name, String query) {}

    private static final String OUTCOMES = "filter message = \"occurrence outcome\"";

    public static final List<SavedQuery> ALL = List.of(
            new SavedQuery(
                    "failures",
                    "fields @timestamp, job, occurrence, occurrence_local, trigger, reason, attempt, fence, error\n"
                            + "| " + OUTCOMES + " and outcome = \"FAIL\"\n"
                            + "| sort @timestamp desc\n"
                            + "| limit 100"),
            new SavedQuery(
                    "job-timeline",
                    "fields @timestamp, occurrence, occurrence_local, trigger, outcome, reason, attempt, fence,"
                            + " lateness_ms, duration_ms\n"
                            + "| " + OUTCOMES + " and job = \"daily-report\"\n"
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

    private SavedQueries() {}

    /** The query's name in the console and in {@code DescribeQueryDefinitions}: {@code punctual/<stage>/<name>}. */
    public static String fullName(String stage, SavedQuery query) {
        return "punctual/" + stage + "/" + query.name();
    }

    /** Saves every query for the stage, over the given log groups. */
    public static void add(Construct scope, String stage, List<ILogGroup> logGroups) {
        for (SavedQuery saved : ALL) {
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
