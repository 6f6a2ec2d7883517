package dev.punctual.cli.reading;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.Completions;
import dev.punctual.cli.input.DurationArgument;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.Suggestions;
import dev.punctual.cli.insights.SavedQueryResult;
import dev.punctual.cli.insights.SavedQueryRunner;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.Table;
import dev.punctual.cli.schedules.EntityDelivery;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.DeployedStage;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.cli.stage.StageTarget;
import dev.punctual.job.JobCatalog;
import dev.punctual.stage.StageFlags;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.SequencedSet;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;

/**
 * {@code logs}: runs one of the stage's saved Logs Insights queries (docs/queries.md) over its log
 * groups, narrowed to a job and an outcome, and prints the rows with the query's own field names.
 */
@Command(
        name = "logs",
        mixinStandardHelpOptions = true,
        description = "Runs a saved Logs Insights query of the stage (default job-timeline) over its log groups,"
                + " optionally for one job and one outcome, and prints the rows.")
public final class LogsCommand implements Callable<Integer> {

    /** Logs Insights answers within seconds; a query still running after this is given up. */
    static final Duration WAIT = Duration.ofSeconds(60);

    private final CliContext context;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StageTarget stage;

    @Mixin
    OutputOptions output;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "JOB",
            description = "Only this job's outcome lines",
            completionCandidates = Completions.JobIds.class)
    String job;

    @Option(names = "--outcome", paramLabel = "OUTCOME", description = "Only PASS, SKIP or FAIL")
    String outcome;

    @Option(
            names = "--entity",
            paramLabel = "ENTITY",
            description = "Only this entity's lines (their entity field), of a per-entity JOB or, without JOB, of"
                    + " every per-entity job; refused with a job of one schedule")
    String entity;

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

    @Option(
            names = "--follow",
            description = "Keep going: run the query again every --every over the last --since and print the rows"
                    + " not printed yet, until Ctrl-C (JSON: one object per batch, per line)")
    boolean follow;

    @Option(
            names = "--every",
            paramLabel = "DURATION",
            description = "With --follow: how often (default: 10s; 5s to 1h)")
    String every;

    /** How many rows --follow remembers to print each once; beyond it the oldest are forgotten. */
    static final int REMEMBERED_ROWS = 10_000;

    /** The catalog by stage name: the one this CLI was built with, or a test's. */
    private final Function<String, JobCatalog> catalogs;

    public LogsCommand(CliContext context) {
        this(context, SchedulesCommand::catalogOf);
    }

    public LogsCommand(CliContext context, Function<String, JobCatalog> catalogs) {
        this.context = context;
        this.catalogs = catalogs;
    }

    @Override
    public Integer call() throws JsonProcessingException, InterruptedException {
        Duration window = DurationArgument.parse(spec.commandLine(), "--since", since);
        // Each run of a Logs Insights query scans the window and costs; faster than 5 s buys nothing.
        Duration interval = Repeating.interval(
                spec.commandLine(), every, follow, "--follow", Duration.ofSeconds(10), Duration.ofSeconds(5));
        if (outcome != null && !List.of("PASS", "SKIP", "FAIL").contains(outcome)) {
            throw new OperatorInputException(
                    "--outcome: '" + outcome + "' is not accepted; accepted: PASS, SKIP, FAIL");
        }
        if (stage.emulator()) {
            throw new OperatorInputException("--endpoint: logs reads a deployed stage's CloudWatch Logs; accepted:"
                    + " --stage NAME (on an emulator, run with --verbose to see the log lines)");
        }
        // Logs has no emulator to offer: its refusals never suggest the --endpoint it refuses.
        String stageName = stage.stageName(false);
        if (job != null) {
            JobCatalog catalog = catalogs.apply(stageName);
            Remote.known(catalog, job);
            EntityDelivery.asked(catalog, job, Optional.ofNullable(entity), false);
        }
        if (job == null && entity != null) {
            JobCatalog catalog = catalogs.apply(stageName);
            if (catalog.jobs().stream().noneMatch(dev.punctual.job.JobDefinition::isPerEntity)) {
                throw new OperatorInputException("--entity: the catalog has no per-entity job; accepted: --entity"
                        + " only with a catalog that declares a job with perEntity(...)");
            }
        }
        // The one entity id rule: what it accepts holds no quote or backslash, so the filter's value is plain.
        Optional<String> entityId = Optional.ofNullable(entity).map(EntityDelivery::entityId);
        Region region = context.aws().region(stage.region);
        DeployedStage deployed =
                OperatorSession.discover(context, region, stageName, StageFlags.defaultsFor(stageName));
        if (!deployed.savedQueries().containsKey(query)) {
            throw new OperatorInputException("--query: '" + query + "' is not a saved query of stage "
                    + deployed.stage() + "; accepted: "
                    + String.join(", ", deployed.savedQueries().keySet())
                    + Suggestions.didYouMean(query, deployed.savedQueries().keySet()));
        }
        Instant end = context.clock().instant();
        SequencedMap<String, String> filters = new LinkedHashMap<>();
        if (job != null) {
            filters.put("job", job);
        }
        entityId.ifPresent(e -> filters.put("entity", e));
        if (outcome != null) {
            filters.put("outcome", outcome);
        }
        try (CloudWatchLogsClient logs = context.aws().logs(region)) {
            SavedQueryRunner runner = new SavedQueryRunner(
                    logs,
                    deployed.stage(),
                    deployed.savedQueries(),
                    deployed.allLogGroups(),
                    context.clock(),
                    context.sleeper());
            SequencedSet<String> printed = new LinkedHashSet<>();
            boolean first = true;
            while (true) {
                switch (runner.run(query, filters, end.minus(window), end, WAIT)) {
                    case SavedQueryResult.Rows rows -> {
                        List<Map<String, String>> fresh = rows.rows().stream()
                                .filter(row -> printed.add(row.toString()))
                                .toList();
                        while (printed.size() > REMEMBERED_ROWS) {
                            printed.removeFirst();
                        }
                        if (first || !fresh.isEmpty()) {
                            print(rows.query(), rows.text(), fresh);
                        }
                    }
                    case SavedQueryResult.Missing missing ->
                        throw new OperatorInputException("--query: the stage's stack names " + missing.query()
                                + " but no such saved query exists; accepted: a stage deployed by this version"
                                + " (cdk deploy)");
                }
                spec.commandLine().getOut().flush();
                first = false;
                if (!follow) {
                    return 0;
                }
                if (!Repeating.waited(context.sleeper(), interval)) {
                    return 0;
                }
                // The whole window again, not only what came since: Logs Insights shows a line some time
                // after it was written, so a line older than the last run can still be new to this one.
                end = context.clock().instant();
            }
        }
    }

    private void print(String fullName, String text, List<Map<String, String>> rows) throws JsonProcessingException {
        PrintWriter out = spec.commandLine().getOut();
        if (output.isJson()) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("query", fullName);
            report.put("query_string", text);
            report.put("since", since);
            report.put("rows", rows);
            out.println(Json.mapper().writeValueAsString(report));
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
