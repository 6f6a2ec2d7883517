package dev.punctual.cli.verify;

import java.time.Duration;
import java.util.Map;

/**
 * The manual run's outcome line (one structured JSON line per occurrence) is found, within a bounded
 * wait, by the stage's saved query that operators run to see what happened to a job at an occurrence
 * ({@value OutcomeSearch#QUERY}, docs/queries.md): the line reached the logs, and the saved query
 * reads it.
 *
 * @param stage the stage verified
 * @param query the saved query's full name, {@code punctual/<stage>/job-timeline}
 * @param search what looking for the line with it gave
 * @param waited how long verify looks at most ({@code --log-wait})
 */
public record OutcomeLoggedCheck(String stage, RunOutcome run, String query, Search search, Duration waited)
        implements Check {

    /** What running the saved query for the run gave. */
    public sealed interface Search {

        /** A row of the run's occurrence with trigger MANUAL; its fields as the query names them. */
        record Found(Map<String, String> row) implements Search {}

        /** No such row in any of {@code queries} runs of the query within the wait. */
        record NotFound(int queries) implements Search {}

        /** The stage has no such saved query; {@code why} says how that was seen. */
        record QueryMissing(String why) implements Search {}

        /** The query itself ended badly (failed, cancelled, still running after the wait). */
        record QueryFailed(String message) implements Search {}
    }

    @Override
    public String name() {
        return "outcome-logged";
    }

    @Override
    public CheckResult result() {
        String checked = "the saved query " + query + " finds the outcome line of " + run.job() + " at "
                + run.occurrence() + " (trigger MANUAL)";
        return switch (search) {
            case Search.Found found ->
                CheckResult.pass(
                        name(),
                        checked,
                        "1 row: " + found.row().getOrDefault("outcome", "?") + " "
                                + found.row().getOrDefault("reason", "?") + ", logged at "
                                + found.row().getOrDefault("@timestamp", "?") + " (verify waits up to "
                                + waited.toSeconds() + " s)");
            case Search.NotFound notFound ->
                CheckResult.fail(
                        name(),
                        checked,
                        "no row within " + waited.toSeconds() + " s (" + notFound.queries() + " run(s) of the query)",
                        "check the function's log group receives its lines (its role may write to it) and run "
                                + query + " for " + run.job() + " in Logs Insights; verify again with a longer"
                                + " --log-wait if logs are slow");
            case Search.QueryMissing missing ->
                CheckResult.fail(
                        name(),
                        checked,
                        "saved query " + query + " is missing: " + missing.why(),
                        "redeploy the stage (cdk deploy -c stage=" + stage
                                + "), which saves its Logs Insights queries (docs/queries.md), then verify again");
            case Search.QueryFailed failed ->
                CheckResult.fail(
                        name(),
                        checked,
                        "the query did not complete: " + failed.message(),
                        "run " + query + " in Logs Insights to see why; verify again when it answers");
        };
    }
}
