package dev.punctual.cli.reading;

import dev.punctual.cli.input.Completions;
import dev.punctual.cli.input.InstantArgument;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.Suggestions;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.job.JobEnvironment;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageFlags;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import dev.punctual.time.ScheduleExpressionException;
import dev.punctual.time.TimelineEntry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code punctual plan}: what a schedule deploys as and when it will run, with the same calculator
 * the handler's catch-up uses, so the preview cannot disagree with what runs.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = "Shows the deployable EventBridge expression and the occurrences of a schedule.")
public final class PlanCommand implements Callable<Integer> {
    static final int MAX_OCCURRENCES = 10_000;
    private static final Instant END_OF_CALENDAR = Instant.parse("2200-01-01T00:00:00Z");

    private final Clock clock;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    /** Either a job of the catalog, or an expression with its zone. */
    static final class Source {
        @Option(
                names = "--job",
                paramLabel = "ID",
                description = "A job of the catalog: its schedule and zone",
                completionCandidates = Completions.JobIds.class)
        String job;

        @ArgGroup(exclusive = false)
        Expression expression;
    }

    static final class Expression {
        @Option(
                names = "--schedule",
                required = true,
                paramLabel = "EXPR",
                description = "Unix cron, cron(...), rate(...) or at(...); or an RFC 5545 recurrence on one line,"
                        + " 'DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO' (deployed as the narrowest"
                        + " cron containing it, decision 0049; docs/time.md)")
        String schedule;

        @Option(
                names = "--zone",
                required = true,
                paramLabel = "ZONE",
                description = "IANA time zone, e.g. Europe/Berlin or UTC")
        String zone;
    }

    @Option(names = "--from", paramLabel = "INSTANT", description = "Start, inclusive (default: now)")
    String from;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Extent extent;

    @Mixin
    OutputOptions output;

    static final class Extent {
        @Option(names = "--to", paramLabel = "INSTANT", description = "End, exclusive")
        String to;

        @Option(names = "--count", paramLabel = "N", description = "Number of occurrences (1-" + MAX_OCCURRENCES + ")")
        Integer count;
    }

    /** Where {@code --job}'s catalog comes from: the one this CLI was built with, or a test's. */
    private final java.util.function.Supplier<dev.punctual.job.JobCatalog> catalog;

    public PlanCommand(Clock clock) {
        // Definitions only: plan connects to nothing, so no stage's resources are needed.
        this(clock, () -> Catalogs.load(JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev"))));
    }

    public PlanCommand(Clock clock, java.util.function.Supplier<dev.punctual.job.JobCatalog> catalog) {
        this.clock = clock;
        this.catalog = catalog;
    }

    /**
     * The schedule typed on the command line; a refusal names the option it came from ({@code --zone},
     * {@code --schedule}), not the schedule model's part, so the hint is one this command has.
     */
    private static Schedule typed(String expression, String zone) {
        try {
            return Schedule.parse(expression, zone);
        } catch (ScheduleExpressionException e) {
            if (e.part().equals("time-zone")) {
                // The option is the zone: "--zone: time-zone: ..." would name the same thing twice.
                throw new OperatorInputException(
                        "--zone: " + e.getMessage().substring(e.part().length() + 2));
            }
            // An expression's part (day-of-week, minutes) says where in it the problem is.
            throw new OperatorInputException("--schedule: " + e.getMessage());
        }
    }

    @Override
    public Integer call() {
        java.util.Optional<dev.punctual.job.JobDefinition> job =
                java.util.Optional.ofNullable(source.job).map(this::catalogJob);
        Schedule parsed = job.map(dev.punctual.job.JobDefinition::schedule)
                .orElseGet(() -> typed(source.expression.schedule, source.expression.zone));
        Instant start = from == null ? clock.instant() : InstantArgument.parse(spec.commandLine(), "--from", from);
        List<TimelineEntry> entries = extent.to != null ? window(parsed, start) : counted(parsed, start);
        PlanReport report = new PlanReport(
                parsed,
                start,
                entries,
                job.flatMap(dev.punctual.job.JobDefinition::deadline),
                job.map(j -> new PlanReport.JobRules(
                        j.exclusions(),
                        j.catchUp(),
                        java.util.Optional.ofNullable(j.spread()),
                        java.util.Optional.ofNullable(j.longRun()))));
        spec.commandLine().getOut().print(output.isJson() ? report.json() : report.text());
        return 0;
    }

    private dev.punctual.job.JobDefinition catalogJob(String id) {
        var catalog = this.catalog.get();
        return catalog.find(id)
                .orElseThrow(() -> refuse("--job: '" + id + "' is not in the catalog; accepted: " + catalog.ids()
                        + Suggestions.didYouMean(id, catalog.ids())));
    }

    private List<TimelineEntry> window(Schedule parsed, Instant start) {
        Instant end = InstantArgument.parse(spec.commandLine(), "--to", extent.to);
        if (!end.isAfter(start)) {
            throw refuse("--to: '" + extent.to + "' is not after --from (" + start + "); --to is exclusive");
        }
        List<TimelineEntry> entries = OccurrenceCalculator.of(parsed).timeline(start, end, MAX_OCCURRENCES + 1);
        if (PlanReport.occurrences(entries).count() > MAX_OCCURRENCES) {
            throw refuse("--to: more than " + MAX_OCCURRENCES + " occurrences before " + end
                    + "; accepted: a nearer --to, or --count");
        }
        return entries;
    }

    private List<TimelineEntry> counted(Schedule parsed, Instant start) {
        if (extent.count < 1 || extent.count > MAX_OCCURRENCES) {
            throw refuse("--count: '" + extent.count + "' is out of range; accepted: 1-" + MAX_OCCURRENCES);
        }
        return OccurrenceCalculator.of(parsed).timeline(start, END_OF_CALENDAR, extent.count);
    }

    private CommandLine.ParameterException refuse(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
