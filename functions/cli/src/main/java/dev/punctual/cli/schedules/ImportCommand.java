package dev.punctual.cli.schedules;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.Table;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.StageTarget;
import dev.punctual.entities.EntityReconcile;
import dev.punctual.entities.EntityTargets;
import dev.punctual.entities.EntityTombstones;
import dev.punctual.entities.Pacer;
import dev.punctual.entities.ReconcileResult;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code schedules import JOB FILE}: reconciles the job's entity schedules with a file
 * ({@link ImportFile}, {@link EntityReconcile}). The whole file is checked before AWS is called (exit 2,
 * nothing written); {@code --dry-run} prints the plan, and without {@code --stage} and {@code --endpoint}
 * checks the file alone, reading nothing (every entity then "would create"); progress goes to stderr. An interrupted import is
 * run again with the same file (decision 0029, 9).
 */
@Command(
        name = "import",
        mixinStandardHelpOptions = true,
        description = "Reconciles a job's entity schedules with a CSV or JSON-lines file (entity, schedule, zone,"
                + " parameters): creates, updates and, with --prune, deletes; --dry-run prints the plan.")
final class ImportCommand implements Callable<Integer> {

    static final double DEFAULT_RATE = 200;

    /** Enough writers to reach the default rate at AWS's usual 20 to 40 ms per call. */
    static final int DEFAULT_WRITERS = 8;

    private final CliContext context;
    private final Function<String, JobCatalog> catalogs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SchedulesCommand.Where where;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", paramLabel = "JOB", description = "A per-entity job of the catalog")
    String job;

    @Parameters(index = "1", paramLabel = "FILE", description = "The entities: FILE.csv or FILE.jsonl")
    Path file;

    @Option(names = "--format", paramLabel = "FORMAT", description = "csv or jsonl (default: by FILE's extension)")
    String format;

    @Option(names = "--prune", description = "Also delete the job's entity schedules absent from FILE")
    boolean prune;

    @Option(names = "--dry-run", description = "Print the plan; write nothing")
    boolean dryRun;

    @Option(
            names = "--rate",
            paramLabel = "PER_SECOND",
            description =
                    "Writes per second, 1 to 10000 (default 200: below the scheduler's smallest write quota, 250/s)")
    double rate = DEFAULT_RATE;

    @Option(
            names = "--writers",
            paramLabel = "N",
            description = "Writes in flight at once, 1 to 64 (default 8); --rate still bounds them all")
    int writers = DEFAULT_WRITERS;

    ImportCommand(CliContext context, Function<String, JobCatalog> catalogs) {
        this.context = context;
        this.catalogs = catalogs;
    }

    @Override
    public Integer call() throws JsonProcessingException {
        boolean json = output.isJson();
        // A dry run named to no stage and no emulator checks the file alone (docs/entities.md), reading nothing.
        boolean offline = dryRun && where.stage == null && !where.emulator();
        if (offline && prune) {
            throw new OperatorInputException("--prune: an offline dry run (no --stage, no --endpoint) cannot read"
                    + " which schedules the file leaves out; accepted: --prune with --stage NAME or --endpoint URL");
        }
        if (offline && where.ledgerTable != null) {
            throw new OperatorInputException("--ledger-table: an offline dry run (no --stage, no --endpoint) reads no"
                    + " table; accepted: with --endpoint URL");
        }
        String stage = offline ? StageTarget.EMULATOR_STAGE : where.stageName();
        JobCatalog catalog = catalogs.apply(stage);
        JobDefinition definition = SchedulesCommand.perEntityJob(catalog, job);
        if (!(rate >= 1 && rate <= 10_000)) {
            throw new OperatorInputException("--rate: " + rate + "; accepted: 1 to 10000 writes per second");
        }
        if (writers < 1 || writers > EntityReconcile.MAX_WRITERS) {
            throw new OperatorInputException(
                    "--writers: " + writers + "; accepted: 1 to " + EntityReconcile.MAX_WRITERS);
        }
        List<EntitySchedule> schedules =
                ImportFile.read(file, format, definition, context.clock().instant());
        if (offline) {
            // Nothing to read: every entity of the file is one the stage would be asked to create.
            ReconcileResult plan = new ReconcileResult(
                    definition.id(),
                    true,
                    schedules.stream()
                            .map(s -> new ReconcileResult.Change(s.entity(), ReconcileResult.Kind.CREATE))
                            .toList());
            spec.commandLine()
                    .getOut()
                    .println(json ? Json.mapper().writeValueAsString(json(plan, null)) : text(plan, null));
            return 0;
        }
        PrintWriter err = spec.commandLine().getErr();
        // The release this module compiles for has no Console.isTerminal(): a console exists only for a terminal there.
        boolean terminal = System.console() != null;
        ImportProgress progress = new ImportProgress(err, terminal, System::nanoTime, schedules.size());
        ReconcileResult result;
        String group;
        try (EntityAccess access = where.open(context, catalog, !dryRun)) {
            EntityTargets targets = SchedulesCommand.targets(access.outputs, catalog, stage);
            group = targets.group();
            EntityTombstones tombstones =
                    EntityTombstones.onStage(access.dynamo, access.outputs, SchedulesCommand.operator());
            result = new EntityReconcile(access.scheduler, catalog, targets, tombstones, Pacer.perSecond(rate), writers)
                    .reconcile(definition.id(), schedules, prune, dryRun, change -> progress.step());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(json ? Json.mapper().writeValueAsString(json(result, group)) : text(result, group));
        return 0;
    }

    private static Map<String, Object> json(ReconcileResult result, String group) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("job", result.job());
        json.put("group", group);
        json.put("dry_run", result.dryRun());
        if (group == null) {
            json.put("offline", true);
        }
        Map<String, Object> counts = new LinkedHashMap<>();
        result.counts().forEach((k, v) -> counts.put(k.name(), v));
        json.put("counts", counts);
        json.put(
                "changes",
                result.changes().stream()
                        .filter(c -> c.kind() != ReconcileResult.Kind.UNCHANGED)
                        .map(c -> new java.util.TreeMap<String, Object>(
                                Map.of("entity", c.entity(), "change", c.kind().name())))
                        .toList());
        return json;
    }

    /** @param group null for an offline dry run, which read no group */
    private static String text(ReconcileResult result, String group) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"CHANGE", "ENTITY", "NAME"});
        for (ReconcileResult.Change c : result.changes()) {
            if (c.kind() != ReconcileResult.Kind.UNCHANGED) {
                rows.add(new String[] {c.kind().name(), c.entity(), EntityScheduleName.of(result.job(), c.entity())});
            }
        }
        StringBuilder text = new StringBuilder();
        if (rows.size() > 1) {
            text.append(Table.render(rows)).append('\n');
        }
        Map<ReconcileResult.Kind, Integer> n = result.counts();
        if (group == null) {
            return text.append("plan (offline dry run, nothing read or written): ")
                    .append(n.get(ReconcileResult.Kind.CREATE))
                    .append(" line(s) valid, each would create its entity's schedule on a stage that has none (")
                    .append("--stage NAME or --endpoint URL compares with the stage's schedules)")
                    .toString();
        }
        text.append(result.dryRun() ? "plan (dry run, nothing written): " : "done: ")
                .append(n.get(ReconcileResult.Kind.CREATE))
                .append(" created, ")
                .append(n.get(ReconcileResult.Kind.UPDATE))
                .append(" updated, ")
                .append(n.get(ReconcileResult.Kind.UNCHANGED))
                .append(" unchanged, ")
                .append(n.get(ReconcileResult.Kind.DELETE))
                .append(" deleted (group ")
                .append(group)
                .append(")");
        return text.toString();
    }
}
