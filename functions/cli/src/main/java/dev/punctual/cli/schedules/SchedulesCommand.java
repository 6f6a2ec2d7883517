package dev.punctual.cli.schedules;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.Completions;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorNames;
import dev.punctual.cli.input.OperatorText;
import dev.punctual.cli.input.Suggestions;
import dev.punctual.cli.output.ExitCodes;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.Table;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.StageTarget;
import dev.punctual.entities.CompletedSchedule;
import dev.punctual.entities.EntitySchedules;
import dev.punctual.entities.EntityTargets;
import dev.punctual.entities.EntityTargetsException;
import dev.punctual.entities.PutResult;
import dev.punctual.entity.EntityIds;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.CompletedPage;
import dev.punctual.ledger.CompletedShards;
import dev.punctual.observability.VisibleText;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageOutputs;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code schedules put|get|list|delete}: a stage's per-entity schedules (docs/entities.md), through the same
 * client a team's services use ({@link EntitySchedules}), on the stage's entity group and targets read from
 * its stack's outputs ({@link EntityTargets#fromStageOutputs}), or on an emulator ({@code --endpoint}) from
 * the outputs a stage of that name would have ({@link EntityAccess}).
 *
 * <p>Everything the command can check on its own (the job, the entity, the schedule, the zone, the
 * parameters) is checked before AWS is called, and refused naming the option it came from ({@code JOB},
 * {@code ENTITY}, {@code --schedule}, {@code --zone}, {@code --param KEY}), exit 2. A {@code get} of an
 * entity that has no schedule exits 3 (nothing found, though nothing failed); a {@code delete} of one
 * exits 0 (there is none afterwards, as asked).
 */
@Command(
        name = "schedules",
        mixinStandardHelpOptions = true,
        description = "Puts, gets, lists and deletes a stage's per-entity schedules (docs/entities.md).")
public final class SchedulesCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * The command with its subcommands.
     *
     * @param catalogs the catalog by stage name: the class path's ({@link #catalogOf}), or a test's
     */
    public static CommandLine commandLine(CliContext context, Function<String, JobCatalog> catalogs) {
        CommandLine line = new CommandLine(new SchedulesCommand());
        line.addSubcommand("put", new Put(context, catalogs));
        line.addSubcommand("get", new Get(context, catalogs));
        line.addSubcommand("list", new ListCommand(context, catalogs));
        line.addSubcommand("delete", new Delete(context, catalogs));
        line.addSubcommand("import", new ImportCommand(context, catalogs));
        return line;
    }

    /** The catalog this CLI was built with, with the stage's flags (nothing connects). */
    public static JobCatalog catalogOf(String stage) {
        return OperatorSession.definitions(StageFlags.defaultsFor(stage));
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "COMMAND: missing; accepted: put, get, list, delete, import (schedules --help)");
    }

    /**
     * {@code --stage}, {@code --endpoint}, {@code --profile}, {@code --region} as every operator command takes
     * them ({@link StageTarget}), and on an emulator the ledger table the entities' tombstones are written to.
     */
    static final class Where extends StageTarget {
        @Option(
                names = "--ledger-table",
                paramLabel = "NAME",
                description = "With --endpoint: the ledger table a delete's tombstone is written to and a put clears"
                        + " (default: punctual-<stage>-ledger, the one run --endpoint uses)")
        String ledgerTable;

        Optional<String> ledgerTableOption() {
            return Optional.ofNullable(ledgerTable).map(t -> OperatorNames.table("--ledger-table", t));
        }

        /** Connects to the stage's entity side ({@link EntityAccess#open}). */
        EntityAccess open(CliContext context, JobCatalog catalog, boolean writes) {
            return EntityAccess.open(context, this, ledgerTableOption(), catalog, writes);
        }
    }

    /** What every subcommand shares: the stage, the output format, the catalog and the client. */
    abstract static class Subcommand implements Callable<Integer> {

        private final CliContext context;
        private final Function<String, JobCatalog> catalogs;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        Where where;

        @Mixin
        OutputOptions output;

        @Parameters(
                index = "0",
                paramLabel = "JOB",
                description = "A per-entity job of the catalog",
                completionCandidates = Completions.JobIds.class)
        String job;

        Subcommand(CliContext context, Function<String, JobCatalog> catalogs) {
            this.context = context;
            this.catalogs = catalogs;
        }

        @Override
        public final Integer call() throws JsonProcessingException {
            boolean json = output.isJson();
            String stage = where.stageName();
            JobCatalog catalog = catalogs.apply(stage);
            JobDefinition definition = perEntityJob(catalog, job);
            Optional<EntitySchedule> desired = refusedAsTyped(() -> checked(definition));
            try (EntityAccess access = where.open(context, catalog, writes())) {
                EntitySchedules schedules = access.schedules(catalog, operator());
                Printed printed = refusedAsTyped(() -> run(schedules, definition, desired));
                PrintWriter out = spec.commandLine().getOut();
                out.println(json ? Json.mapper().writeValueAsString(printed.json()) : printed.text());
                return printed.exitCode();
            }
        }

        /** The command's clock: a put's schedule must have an occurrence after its now. */
        java.time.Clock clock() {
            return context.clock();
        }

        /** Whether the subcommand writes (the ledger's tombstones too): on an emulator, its ledger table is made. */
        boolean writes() {
            return false;
        }

        /** What the subcommand asks for, checked before anything is called; empty when it asks for none. */
        abstract Optional<EntitySchedule> checked(JobDefinition definition);

        abstract Printed run(EntitySchedules schedules, JobDefinition definition, Optional<EntitySchedule> desired);
    }

    /**
     * The {@code --param KEY=VALUE} options as a map; a value without {@code =}, or a key given twice, is
     * refused naming it (a second {@code locale=} would otherwise silently win over the first).
     */
    static Map<String, String> parameters(List<String> given) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : given) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new OperatorInputException("--param: '" + VisibleText.escaped(pair) + "' is not KEY=VALUE;"
                        + " accepted: a parameter the job declares and its value, e.g. --param locale=fr");
            }
            String key = pair.substring(0, equals);
            String value = pair.substring(equals + 1);
            String first = parameters.putIfAbsent(key, value);
            if (first != null) {
                throw new OperatorInputException("--param " + VisibleText.escaped(key) + ": given twice ('"
                        + VisibleText.escaped(first) + "', then '" + VisibleText.escaped(value)
                        + "'); accepted: each key once");
            }
        }
        return parameters;
    }

    /** Who a delete's tombstone names: the operator running the command, as maintenance names them. */
    static String operator() {
        return OperatorText.by(System.getProperty("user.name", "operator"));
    }

    /** One subcommand's answer: the table, the JSON object, the exit code. */
    record Printed(String text, Map<String, Object> json, int exitCode) {}

    /** Subcommands of one entity. */
    abstract static class OfEntity extends Subcommand {
        @Parameters(index = "1", paramLabel = "ENTITY", description = "The entity's id, e.g. a tenant's")
        String entity;

        OfEntity(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        Optional<EntitySchedule> checked(JobDefinition definition) {
            EntityIds.require(entity);
            return Optional.empty();
        }
    }

    @Command(
            name = "put",
            mixinStandardHelpOptions = true,
            description = "Makes the entity's schedule the one given (idempotent): prints CREATED, UPDATED or"
                    + " UNCHANGED and the schedule's name.")
    static final class Put extends OfEntity {
        @Option(
                names = "--zone",
                paramLabel = "ZONE",
                description = "The entity's IANA zone, e.g. Europe/Paris; required (there is no default)")
        String zone;

        @Option(
                names = "--schedule",
                paramLabel = "EXPR",
                description = "The entity's expression (default: the job's own)")
        String schedule;

        @Option(
                names = "--param",
                paramLabel = "KEY=VALUE",
                description = "A parameter the job declares (repeatable, each key once)")
        List<String> parameters = new ArrayList<>();

        Put(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        /**
         * The entity's schedule, checked as every entry point checks it, and for a put also that it has an
         * occurrence to come (an {@code at()} in the past, or an expression that matches no date, is refused).
         */
        @Override
        Optional<EntitySchedule> checked(JobDefinition definition) {
            return Optional.of(EntitySchedule.of(definition, entity, schedule, zone, parameters(parameters))
                    .requireOccurrenceAfter(clock().instant()));
        }

        @Override
        boolean writes() {
            return true;
        }

        @Override
        Printed run(EntitySchedules schedules, JobDefinition definition, Optional<EntitySchedule> desired) {
            EntitySchedule asked = desired.orElseThrow();
            PutResult result = schedules.put(asked);
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("job", asked.job());
            json.put("change", result.name());
            json.putAll(row(asked));
            json.put("group", schedules.group());
            return new Printed(result.name() + " " + asked.name() + " (group " + schedules.group() + ")", json, 0);
        }
    }

    @Command(
            name = "get",
            mixinStandardHelpOptions = true,
            description = "Shows the entity's schedule as deployed; exits 3 when it has none.")
    static final class Get extends OfEntity {
        Get(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        Printed run(EntitySchedules schedules, JobDefinition definition, Optional<EntitySchedule> desired) {
            Optional<EntitySchedule> found = schedules.get(definition.id(), entity);
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("job", definition.id());
            json.put("entity", entity);
            json.put("found", found.isPresent());
            json.put("name", EntityScheduleName.of(definition.id(), entity));
            json.put("group", schedules.group());
            if (found.isEmpty()) {
                // A one-time at() schedule is deleted by the scheduler after its delivery (decision 0043):
                // the ledger still knows the entity, so it is answered from there, not as unknown.
                Optional<CompletedSchedule> completed =
                        completedOrNone(schedules, definition.id(), entity, where.emulator());
                if (completed.isPresent()) {
                    CompletedSchedule done = completed.get();
                    String status = done.status().map(Enum::name).orElse("run item past its retention");
                    json.put("completed", completedJson(done));
                    return new Printed(
                            "completed: " + EntityScheduleName.of(definition.id(), entity) + " was delivered for "
                                    + done.occurrence() + " (" + status + "); its schedule is no longer in group "
                                    + schedules.group() + ": the scheduler deletes a one-time at() schedule after its"
                                    + " delivery (answered from the ledger)",
                            json,
                            0);
                }
                return new Printed(
                        "no schedule: " + EntityScheduleName.of(definition.id(), entity) + " is not in group "
                                + schedules.group() + " (schedules put " + definition.id() + " " + entity
                                + " --zone ZONE creates it)",
                        json,
                        ExitCodes.RAN_NOTHING);
            }
            json.putAll(row(found.get()));
            return new Printed(table(List.of(found.get())), json, 0);
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Lists every entity's schedule of the job (one GetSchedule per entity), then its completed"
                    + " one-time at() entities from the ledger, a page at a time (decision 0047).")
    static final class ListCommand extends Subcommand {

        @Option(
                names = "--completed-limit",
                paramLabel = "N",
                description = "Completed notes read from the ledger per page, 0 to " + CompletedPage.MAX_LIMIT
                        + "; 0 lists live schedules only (default " + CompletedList.DEFAULT_LIMIT + ")")
        int completedLimit = CompletedList.DEFAULT_LIMIT;

        @Option(
                names = "--completed-after",
                paramLabel = "TOKEN",
                description = "Continue the completed list where a previous list stopped (its 'more completed:'"
                        + " token, completed_next in -o json)")
        String completedAfter;

        private CompletedShards.Position from;

        ListCommand(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        Optional<EntitySchedule> checked(JobDefinition definition) {
            from = CompletedList.from(completedAfter, CompletedList.limit(completedLimit));
            return Optional.empty();
        }

        @Override
        Printed run(EntitySchedules schedules, JobDefinition definition, Optional<EntitySchedule> desired) {
            List<EntitySchedule> all = schedules.list(definition.id());
            Set<String> live = all.stream().map(EntitySchedule::entity).collect(Collectors.toSet());
            CompletedList.Rows completed =
                    CompletedList.read(schedules, definition.id(), live, from, completedLimit, where.emulator());
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("job", definition.id());
            json.put("group", schedules.group());
            json.put("schedules", all.stream().map(ListCommand::liveRow).toList());
            json.put(
                    "completed",
                    completed.entities().stream().map(CompletedList::row).toList());
            json.put("completed_next", completed.next().orElse(null));
            String text = all.isEmpty()
                    ? "no schedules: " + definition.id() + " has no entity schedule in group " + schedules.group()
                    : table(all);
            String more = CompletedList.text(definition.id(), completed);
            return new Printed(more.isEmpty() ? text : text.stripTrailing() + "\n\n" + more, json, 0);
        }

        /** A live schedule's row, marked so beside the completed ones. */
        private static Map<String, Object> liveRow(EntitySchedule s) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("entity", s.entity());
            row.put("state", "live");
            row.putAll(row(s));
            return row;
        }
    }

    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            description =
                    "Deletes the entity's schedule; one that has none is left so (exit 0), so it can be" + " repeated.")
    static final class Delete extends OfEntity {
        Delete(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        boolean writes() {
            return true;
        }

        @Override
        Printed run(EntitySchedules schedules, JobDefinition definition, Optional<EntitySchedule> desired) {
            boolean deleted = schedules.delete(definition.id(), entity);
            String name = EntityScheduleName.of(definition.id(), entity);
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("job", definition.id());
            json.put("entity", entity);
            json.put("change", deleted ? "DELETED" : "NONE");
            json.put("name", name);
            json.put("group", schedules.group());
            return new Printed(
                    deleted ? "DELETED " + name : "no schedule: " + name + " was not in group " + schedules.group(),
                    json,
                    0);
        }
    }

    /** One schedule's columns, snake_case, in the table's order. */
    static Map<String, Object> row(EntitySchedule s) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("entity", s.entity());
        row.put("schedule", s.schedule().expression().source());
        row.put("deployed", s.deployment().expression());
        if (s.offsetMinutes() != 0) {
            row.put("offset_minutes", s.offsetMinutes());
        }
        row.put("zone", s.schedule().zone().getId());
        row.put("parameters", new TreeMap<>(s.parameters()));
        row.put("name", s.name());
        return row;
    }

    /**
     * What the ledger says of an entity without a schedule; none when the ledger table does not exist (an
     * emulator's stage no command has written yet: a read creates the group, not the table), so it has no
     * record of the entity either. On a deployed stage a missing table is a fault, reported as any failed call.
     */
    static Optional<CompletedSchedule> completedOrNone(
            EntitySchedules schedules, String job, String entity, boolean emulator) {
        try {
            return schedules.completed(job, entity);
        } catch (RuntimeException e) {
            if (missingTable(e, emulator)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** On an emulator, whether the failure is the ledger table's absence (no command has made it yet). */
    static boolean missingTable(RuntimeException e, boolean emulator) {
        for (Throwable cause = e; emulator && cause != null; cause = cause.getCause()) {
            if (cause instanceof software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException) {
                return true;
            }
        }
        return false;
    }

    /** A completed entity as {@code get -o json} shows it, under {@code completed} (decision 0043). */
    static Map<String, Object> completedJson(CompletedSchedule done) {
        Map<String, Object> completed = new LinkedHashMap<>();
        completed.put("occurrence", done.occurrence().toString());
        completed.put("status", done.status().map(Enum::name).orElse(null));
        completed.put("schedule", "deleted by the scheduler after completion");
        completed.put("source", "ledger");
        return completed;
    }

    static String table(List<EntitySchedule> schedules) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"ENTITY", "SCHEDULE", "ZONE", "PARAMETERS", "NAME"});
        for (EntitySchedule s : schedules) {
            rows.add(new String[] {
                s.entity(),
                s.schedule().expression().source(),
                s.schedule().zone().getId(),
                s.parameters().isEmpty()
                        ? "-"
                        : new TreeMap<>(s.parameters())
                                .entrySet().stream()
                                        .map(e -> e.getKey() + "=" + e.getValue())
                                        .collect(Collectors.joining(",")),
                s.name()
            });
        }
        return Table.render(rows);
    }

    /**
     * The job, if it is one of the catalog's per-entity jobs; otherwise refused naming {@code JOB}, the
     * per-entity jobs and, for a typo, the closest id.
     */
    static JobDefinition perEntityJob(JobCatalog catalog, String id) {
        List<String> perEntity = catalog.jobs().stream()
                .filter(JobDefinition::isPerEntity)
                .map(JobDefinition::id)
                .toList();
        String accepted = perEntity.isEmpty()
                ? "none (the catalog declares no job with perEntity(...))"
                : "a job declared with perEntity(...): " + String.join(", ", perEntity);
        Optional<JobDefinition> found = catalog.find(id);
        if (found.isEmpty()) {
            throw new OperatorInputException("JOB: '" + VisibleText.escaped(id) + "' is not a job of this catalog;"
                    + " accepted: " + accepted
                    + Suggestions.didYouMean(id, perEntity.isEmpty() ? catalog.ids() : perEntity));
        }
        if (!found.get().isPerEntity()) {
            throw new OperatorInputException(
                    "JOB: '" + id + "' has one schedule of its own, not one per entity; accepted: " + accepted);
        }
        return found.get();
    }

    /**
     * The entity client's refusals, naming what was typed instead of the model's field: {@code --zone}, not
     * {@code zone}; {@code --param locale}, not {@code parameters.locale}.
     */
    static <T> T refusedAsTyped(Supplier<T> call) {
        try {
            return call.get();
        } catch (EntityScheduleException e) {
            String problem = e.getMessage().substring(e.field().length() + 2);
            throw new OperatorInputException(typed(e.field()) + ": " + problem);
        }
    }

    static String typed(String field) {
        return switch (field) {
            case "job" -> "JOB";
            case "entity" -> "ENTITY";
            case "zone" -> "--zone";
            case "schedule" -> "--schedule";
            case "parameters" -> "--param";
            default -> field.startsWith("parameters.") ? "--param " + field.substring("parameters.".length()) : field;
        };
    }

    /**
     * The stage's entity group and targets; a stage that has none (deployed before entity schedules, or
     * with a catalog without a per-entity job) is refused naming {@code --stage} and what to deploy.
     */
    static EntityTargets targets(Map<String, String> outputs, JobCatalog catalog, String stage) {
        String stack = StageOutputs.stackName(stage);
        try {
            return EntityTargets.fromStageOutputs(outputs, catalog);
        } catch (EntityTargetsException e) {
            if (e.field().equals("outputs." + StageOutputs.ENTITY_SCHEDULE_GROUP)) {
                throw new OperatorInputException("--stage: stage '" + stage + "' has no entity schedule group (its"
                        + " stack " + stack + " has no output " + StageOutputs.ENTITY_SCHEDULE_GROUP + "); accepted:"
                        + " a stage deployed with a catalog that has a per-entity job, by this release or later"
                        + " (deploy this catalog to it: cdk deploy, docs/entities.md)");
            }
            if (e.field().startsWith("outputs.")) {
                throw new OperatorInputException("--stage: stack " + stack + " has no output "
                        + e.field().substring("outputs.".length()) + "; accepted: a stage deployed with this catalog"
                        + " (its per-entity jobs' pools), by this release or later (cdk deploy it again)");
            }
            throw new OperatorInputException("--stage: stack " + stack + " output " + e.getMessage());
        }
    }
}
