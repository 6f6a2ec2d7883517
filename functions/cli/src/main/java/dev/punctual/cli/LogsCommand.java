package dev.punctual.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.stage.StageFlags;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetQueryResultsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.QueryDefinition;
import software.amazon.awssdk.services.cloudwatchlogs.model.QueryStatus;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResultField;

/**
 * {@code logs}: runs one of the stage's saved Logs Insights queries (docs/queries.md) over its log
 * groups, narrowed to a job and an outcome, and prints the rows with the query's own field names.
 */
@Command(
        name = "logs",
        mixinStandardHelpOptions = true,
        description = "Runs a saved Logs Insights query of the stage (default job-timeline) over its log groups,"
                + " optionally for one job and one outcome, and prints the rows.")
final class LogsCommand implements Callable<Integer> {

    /** Logs Insights answers within seconds; a query still running after this is given up. */
    static final Duration WAIT = Duration.ofSeconds(60);

    private static final Duration POLL = Duration.ofMillis(500);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CliContext context;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StageTarget stage;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB", description = "Only this job's outcome lines")
    String job;

    @Option(names = "--outcome", paramLabel = "OUTCOME", description = "Only PASS, SKIP or FAIL")
    String outcome;

    @Option(
            names = "--since",
            paramLabel = "DURATION",
            defaultValue = "1h",
            description = "How far back (default ${DEFAULT-VALUE}), e.g. 30m, 2h, 7d")
    String since;

    @Option(
            names = "--query",
            paramLabel = "NAME",
            defaultValue = "job-timeline",
            description = "The saved query (default ${DEFAULT-VALUE}): failures, job-timeline, skips-by-reason,"
                    + " slowest-runs, catch-up-and-missed, lock-busy")
    String query;

    LogsCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws JsonProcessingException, InterruptedException {
        Duration window = DurationArgument.parse(spec.commandLine(), "--since", since);
        if (outcome != null && !List.of("PASS", "SKIP", "FAIL").contains(outcome)) {
            throw new OperatorInputException(
                    "--outcome: '" + outcome + "' is not accepted; accepted: PASS, SKIP, FAIL");
        }
        if (job != null) {
            Remote.known(OperatorSession.definitions(StageFlags.defaultsFor(stage.stageName())), job);
        }
        if (stage.emulator()) {
            throw new OperatorInputException("--endpoint: logs reads a deployed stage's CloudWatch Logs; accepted:"
                    + " --stage NAME (on an emulator, run with --verbose to see the log lines)");
        }
        Region region = context.aws().region(stage.region);
        DeployedStage deployed =
                OperatorSession.discover(context, region, stage.stageName(), StageFlags.defaultsFor(stage.stageName()));
        String fullName = deployed.savedQueries().get(query);
        if (fullName == null) {
            throw new OperatorInputException("--query: '" + query + "' is not a saved query of stage "
                    + deployed.stage() + "; accepted: "
                    + String.join(", ", deployed.savedQueries().keySet())
                    + Suggestions.didYouMean(query, deployed.savedQueries().keySet()));
        }
        Clock clock = context.clock();
        Instant end = clock.instant();
        try (CloudWatchLogsClient logs = context.aws().logs(region)) {
            String text = narrowed(savedText(logs, fullName), job, outcome);
            String id = logs.startQuery(b -> b.queryString(text)
                            .logGroupNames(deployed.allLogGroups())
                            .startTime(end.minus(window).getEpochSecond())
                            .endTime(end.getEpochSecond()))
                    .queryId();
            List<Map<String, String>> rows = rows(await(logs, id));
            print(fullName, text, rows);
            return 0;
        }
    }

    /** The saved query's text, as deployed ({@code DescribeQueryDefinitions}). */
    private static String savedText(CloudWatchLogsClient logs, String fullName) {
        return logs.describeQueryDefinitions(b -> b.queryDefinitionNamePrefix(fullName)).queryDefinitions().stream()
                .filter(d -> d.name().equals(fullName))
                .map(QueryDefinition::queryString)
                .findFirst()
                .orElseThrow(() -> new OperatorInputException("--query: the stage's stack names " + fullName
                        + " but no such saved query exists; accepted: a stage deployed by this version (cdk deploy)"));
    }

    /**
     * The saved text narrowed by one {@code filter} line per option, after its first line (the query's
     * {@code fields}); {@code job-timeline} names an example job in its own filter, which a job given here
     * replaces and no job removes.
     */
    static String narrowed(String text, String job, String outcome) {
        String withoutJob = text.replaceAll(" and job = \"[^\"]*\"", "");
        List<String> lines = new ArrayList<>(List.of(withoutJob.split("\n", -1)));
        int at = 1;
        if (job != null) {
            lines.add(at++, "| filter job = \"" + job + "\"");
        }
        if (outcome != null) {
            lines.add(at, "| filter outcome = \"" + outcome + "\"");
        }
        return String.join("\n", lines);
    }

    /**
     * Polls the query until it completes, for at most {@link #WAIT} on the context's clock; waits
     * through the context's sleeper, so a test moves its clock instead of sleeping.
     */
    private GetQueryResultsResponse await(CloudWatchLogsClient logs, String id) throws InterruptedException {
        Clock clock = context.clock();
        Instant deadline = clock.instant().plus(WAIT);
        while (true) {
            GetQueryResultsResponse response = logs.getQueryResults(b -> b.queryId(id));
            QueryStatus status = response.status();
            if (status == QueryStatus.COMPLETE) {
                return response;
            }
            if (status != QueryStatus.RUNNING && status != QueryStatus.SCHEDULED) {
                throw new IllegalStateException("the Logs Insights query " + id + " ended " + status
                        + "; run it in the console (CloudWatch, Logs Insights) to see why");
            }
            if (clock.instant().isAfter(deadline)) {
                throw new IllegalStateException("the Logs Insights query " + id + " was still " + status
                        + " after " + WAIT.toSeconds() + "s; run it in the console (CloudWatch, Logs Insights)"
                        + " or narrow --since");
            }
            context.sleeper().sleep(POLL);
        }
    }

    /** Each row as field → value, in the query's field order; Logs Insights' {@code @ptr} left out. */
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

    private void print(String fullName, String text, List<Map<String, String>> rows) throws JsonProcessingException {
        PrintWriter out = spec.commandLine().getOut();
        if (output.isJson()) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("query", fullName);
            report.put("query_string", text);
            report.put("since", since);
            report.put("rows", rows);
            out.println(JSON.writeValueAsString(report));
            return;
        }
        if (rows.isEmpty()) {
            out.println(fullName + ": no rows in the last " + since);
            return;
        }
        List<String> columns = new ArrayList<>();
        rows.forEach(r -> r.keySet().stream().filter(k -> !columns.contains(k)).forEach(columns::add));
        List<String[]> lines = new ArrayList<>();
        lines.add(
                columns.stream().map(c -> c.toUpperCase(java.util.Locale.ROOT)).toArray(String[]::new));
        rows.forEach(
                r -> lines.add(columns.stream().map(c -> r.getOrDefault(c, "-")).toArray(String[]::new)));
        out.println(Table.render(lines));
    }
}
