package dev.punctual.cli.insights;

import dev.punctual.ledger.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetQueryResultsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.QueryDefinition;
import software.amazon.awssdk.services.cloudwatchlogs.model.QueryStatus;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResultField;

/**
 * Runs a stage's saved Logs Insights queries (docs/queries.md) the way {@code punctual logs} and
 * {@code punctual verify --activate} both need: the saved text as deployed ({@code
 * DescribeQueryDefinitions}), narrowed by {@code field = "value"} filters, started over the stage's log
 * groups for a time window ({@code StartQuery}), then {@code GetQueryResults} polled until complete for
 * a bounded time, measured on the given clock and waited through the given sleeper (a test moves its
 * clock instead of sleeping).
 */
public final class SavedQueryRunner {

    /** How often a running query is polled. */
    public static final Duration POLL = Duration.ofMillis(500);

    private final CloudWatchLogsClient logs;
    private final String stage;
    private final Map<String, String> savedQueries;
    private final List<String> logGroups;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Map<String, String> texts = new HashMap<>();

    /**
     * @param stage the stage's name
     * @param savedQueries each saved query's full name ({@code punctual/<stage>/<name>}) by name, as the
     *     stage's stack outputs name them
     * @param logGroups the log groups the queries run over: every pool's
     */
    public SavedQueryRunner(
            CloudWatchLogsClient logs,
            String stage,
            Map<String, String> savedQueries,
            List<String> logGroups,
            Clock clock,
            Sleeper sleeper) {
        this.logs = logs;
        this.stage = stage;
        this.savedQueries = Map.copyOf(savedQueries);
        this.logGroups = List.copyOf(logGroups);
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /**
     * The saved query's full name: as the stack's outputs name it, else as the CDK app would
     * ({@code punctual/<stage>/<name>}, infra's {@code SavedQueries.fullName}).
     */
    public String fullName(String name) {
        return savedQueries.getOrDefault(name, "punctual/" + stage + "/" + name);
    }

    /**
     * Runs the saved query {@code name} narrowed by {@code filters} (one {@code | filter field = "value"}
     * line each, in their order) over {@code [from, to]}.
     *
     * @param wait how long a started query may run; polled every {@link #POLL} until then
     * @return its rows, or {@link SavedQueryResult.Missing} when the stage has no such saved query
     * @throws SavedQueryException when the query ends other than complete or is still running after {@code wait}
     */
    public SavedQueryResult run(
            String name, SequencedMap<String, String> filters, Instant from, Instant to, Duration wait)
            throws InterruptedException {
        String fullName = savedQueries.get(name);
        if (fullName == null) {
            return new SavedQueryResult.Missing(fullName(name), "the stage's stack has no output naming it");
        }
        Optional<String> saved = savedText(fullName);
        if (saved.isEmpty()) {
            return new SavedQueryResult.Missing(
                    fullName, "the stage's stack names it but DescribeQueryDefinitions finds no such saved query");
        }
        String text = narrowed(saved.get(), filters);
        String id = logs.startQuery(b -> b.queryString(text)
                        .logGroupNames(logGroups)
                        .startTime(from.getEpochSecond())
                        .endTime(endSecond(to)))
                .queryId();
        return new SavedQueryResult.Rows(fullName, text, rows(await(id, wait)));
    }

    /** The saved query's text as deployed, read once per runner. */
    private Optional<String> savedText(String fullName) {
        String known = texts.get(fullName);
        if (known != null) {
            return Optional.of(known);
        }
        Optional<String> text =
                logs.describeQueryDefinitions(b -> b.queryDefinitionNamePrefix(fullName)).queryDefinitions().stream()
                        .filter(d -> d.name().equals(fullName))
                        .map(QueryDefinition::queryString)
                        .findFirst();
        text.ifPresent(t -> texts.put(fullName, t));
        return text;
    }

    /** Logs Insights takes whole seconds; rounding the end up keeps a line logged within its last second. */
    private static long endSecond(Instant to) {
        return to.getNano() == 0 ? to.getEpochSecond() : to.getEpochSecond() + 1;
    }

    /**
     * The saved text narrowed by one {@code filter} line per entry, after its first line (the query's
     * {@code fields}); {@code job-timeline} names an example job in its own filter, which is removed (a
     * {@code job} filter given here takes its place).
     */
    public static String narrowed(String text, SequencedMap<String, String> filters) {
        String withoutJob = text.replaceAll(" and job = \"[^\"]*\"", "");
        List<String> lines = new ArrayList<>(List.of(withoutJob.split("\n", -1)));
        int at = 1;
        for (Map.Entry<String, String> filter : filters.entrySet()) {
            lines.add(at++, "| filter " + filter.getKey() + " = " + quoted(filter.getValue()));
        }
        return String.join("\n", lines);
    }

    /**
     * A Logs Insights string literal: in double quotes, with a backslash or a double quote escaped by a
     * backslash, so that no value can end the literal and add to the query. The CLI's values are checked
     * before (a job id, an outcome, an entity id by its rule), and none of them holds either character.
     */
    static String quoted(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Polls the query until it completes, for at most {@code wait} on the clock. */
    private GetQueryResultsResponse await(String id, Duration wait) throws InterruptedException {
        Instant deadline = clock.instant().plus(wait);
        while (true) {
            GetQueryResultsResponse response = logs.getQueryResults(b -> b.queryId(id));
            QueryStatus status = response.status();
            if (status == QueryStatus.COMPLETE) {
                return response;
            }
            if (status != QueryStatus.RUNNING && status != QueryStatus.SCHEDULED) {
                throw new SavedQueryException("the Logs Insights query " + id + " ended " + status
                        + "; run it in the console (CloudWatch, Logs Insights) to see why");
            }
            if (clock.instant().isAfter(deadline)) {
                throw new SavedQueryException("the Logs Insights query " + id + " was still " + status + " after "
                        + wait.toSeconds() + "s; run it in the console (CloudWatch, Logs Insights) or narrow the"
                        + " time range");
            }
            sleeper.sleep(POLL);
        }
    }

    private static List<Map<String, String>> rows(GetQueryResultsResponse response) {
        List<Map<String, String>> rows = new ArrayList<>();
        for (List<ResultField> row : response.results()) {
            Map<String, String> fields = new LinkedHashMap<>();
            for (ResultField field : row) {
                if (!field.field().equals("@ptr")) {
                    fields.put(field.field(), field.value());
                }
            }
            rows.add(fields);
        }
        return rows;
    }
}
