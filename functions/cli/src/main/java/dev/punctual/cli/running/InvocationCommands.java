package dev.punctual.cli.running;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.input.Completions;
import dev.punctual.cli.input.DurationArgument;
import dev.punctual.cli.input.InstantArgument;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.ResultOutput;
import dev.punctual.cli.schedules.EntityDelivery;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.cli.stage.RemoteFunctionException;
import dev.punctual.cli.stage.RemoteInvocation;
import dev.punctual.cli.stage.StageOptions;
import dev.punctual.infra.Stages;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.Lease;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.OccurrenceListener;
import dev.punctual.runtime.ResultJson;
import dev.punctual.runtime.ScheduledPayload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code invoke}, {@code run} and {@code replay}: the handler with the same lock and ledger as a
 * scheduled run, in the deployed stage's function or, with {@code --local} or {@code --endpoint}, in
 * this JVM.
 */
public final class InvocationCommands {

    /** An operator's command may take as long as the longest Lambda could. */
    static final Duration CLI_BUDGET = CliContext.CLI_BUDGET;

    private InvocationCommands() {}

    /**
     * Shared: run one payload and print the result. Against a deployed stage the payload goes to the
     * job's function (Lambda Invoke on its pool's alias); with {@code --local}, or on an emulator, the
     * handler runs in this JVM with the operator's credentials.
     */
    abstract static class Base implements Callable<Integer> {
        final CliContext context;
        final Clock clock;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        StageOptions stage;

        @Mixin
        OutputOptions output;

        @Option(
                names = "--verbose",
                description = "Also print the structured log lines on stderr (from the function: its log tail)")
        boolean verbose;

        @Option(
                names = "--local",
                description = "Run the handler in this JVM with your own credentials instead of in the stage's"
                        + " function (the default with --endpoint)")
        boolean local;

        @Option(
                names = "--skew-tolerance",
                paramLabel = "DURATION",
                description = "How far this machine's clock may be off from the stage's functions (at most 60s;"
                        + " default: the stage's skewTolerance in Stages.java, 2s for a stage it does not define):"
                        + " the lease outlives the job's deadline by this much. Only with --local or --endpoint; a"
                        + " deployed function uses its stage's skewTolerance")
        String skewTolerance;

        /** The catalog by stage name, for what the command checks itself (the class path's, or a test's). */
        final Function<String, JobCatalog> catalogs;

        /** The entity this run is for, once read (null until then). */
        private Optional<EntityDelivery> entity;

        Base(CliContext context) {
            this(context, SchedulesCommand::catalogOf);
        }

        Base(CliContext context, Function<String, JobCatalog> catalogs) {
            this.context = context;
            this.clock = context.clock();
            this.catalogs = catalogs;
        }

        /** A test's catalog the command runs in this JVM (with --endpoint or --local); null for the CLI's own. */
        private JobCatalog inProcessCatalog;

        /** Runs {@code catalog} in this JVM instead of the one this CLI was built with (tests). */
        public Base runningInProcess(JobCatalog catalog) {
            this.inProcessCatalog = catalog;
            return this;
        }

        /** The command's catalog: the one this CLI was built with, with the stage's flags. */
        JobCatalog catalog() {
            return catalogs.apply(stage.stageName());
        }

        /**
         * The entity a per-entity job's run is for ({@code --entity}), with its schedule read from the
         * stage's entity group; empty for a job of one schedule. Checked before anything connects, then read
         * once.
         */
        Optional<EntityDelivery> entity(String job, Optional<String> option) {
            if (entity == null) {
                JobCatalog catalog = catalog();
                entity = EntityDelivery.asked(catalog, job, option).map(asked -> read(catalog, asked));
            }
            return entity;
        }

        /**
         * The entity's schedule, as the services put it: the stage's entity group (a deployed stage's, or
         * the emulator's with --endpoint), read as they read it.
         */
        private EntityDelivery read(JobCatalog catalog, Map.Entry<JobDefinition, String> asked) {
            return EntityDelivery.read(context, stage, catalog, asked.getKey(), asked.getValue());
        }

        abstract String payload();

        /** The job the payload names, if any: its pool's function runs it. */
        abstract Optional<String> job();

        boolean allowDestructive() {
            return false;
        }

        /** With --verbose, the structured log lines on stderr. */
        Consumer<String> logSink(PrintWriter err) {
            return line -> {
                if (verbose) {
                    err.println(line);
                }
            };
        }

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            // Options are checked before anything connects: a bad --at fails fast, naming the option.
            String payload = payload();
            givenTolerance(); // a bad --skew-tolerance fails here too, whichever way the run goes
            if (stage.emulator() || local) {
                return inProcess(payload, tolerance(Stages::configuredSkewTolerance), out, err);
            }
            if (skewTolerance != null) {
                throw new OperatorInputException("--skew-tolerance: the deployed function keeps its stage's"
                        + " skewTolerance (stage config); accepted: with --local or --endpoint (runs in this JVM)");
            }
            if (stage.ledgerTableOption().isPresent() || !stage.jobTables.isEmpty()) {
                throw new OperatorInputException(
                        (stage.ledgerTableOption().isPresent() ? "--ledger-table" : "--job-table")
                                + ": the deployed function uses its stage's tables; accepted: with --local or --endpoint"
                                + " (runs in this JVM)");
            }
            if (allowDestructive()) {
                throw new OperatorInputException("--allow-destructive: the deployed function keeps its stage's"
                        + " flags; accepted: with --local (runs in this JVM), for the one-off verification of"
                        + " docs/runbook.md");
            }
            return remotely(payload, out, err);
        }

        /**
         * The tolerance of a run in this JVM: {@code --skew-tolerance}, or else the one this build's
         * Stages.java configures for the stage, so that the laptop and the functions deployed from it agree
         * on how long a lease outlives a deadline; the default for a stage this build does not define.
         *
         * @param configured a stage's configured tolerance by name (Stages.java's, or a test's)
         */
        Duration tolerance(Function<String, Optional<Duration>> configured) {
            return givenTolerance()
                    .orElseGet(() -> configured.apply(stage.stageName()).orElse(Lease.DEADLINE_MARGIN));
        }

        /** The --skew-tolerance option, if given; refused outside 0..60 s, naming the option. */
        Optional<Duration> givenTolerance() {
            if (skewTolerance == null) {
                return Optional.empty();
            }
            Duration parsed = DurationArgument.parse(spec.commandLine(), "--skew-tolerance", skewTolerance);
            if (parsed.isNegative() || parsed.compareTo(Lease.MAX_SKEW_TOLERANCE) > 0) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--skew-tolerance: '" + skewTolerance + "' is out of range; accepted: 0s to "
                                + Lease.MAX_SKEW_TOLERANCE.toSeconds() + "s");
            }
            return Optional.of(parsed);
        }

        /**
         * This JVM's budget: as long as the longest Lambda, but a claim's lease lasts only as long as the
         * job's own function could run (its pool's timeout, plus the tolerance). A job that polls
         * {@code shouldStop()} has the runtime renew it up to the budget; a laptop that dies mid-run
         * holds the group no longer than a function that dies would.
         */
        Deadline deadline(JobCatalog catalog, Duration tolerance) {
            Deadline budget = Deadline.fromRemaining(clock.instant(), CLI_BUDGET, tolerance);
            return job().flatMap(catalog::find)
                    .map(definition ->
                            budget.withLeaseTerm(definition.pool().timeout().plus(tolerance)))
                    .orElse(budget);
        }

        int inProcess(String payload, Duration tolerance, PrintWriter out, PrintWriter err) {
            if (allowDestructive()) {
                err.println(
                        "warning: destructive jobs are allowed for this one command (stage " + stage.stageName() + ")");
            }
            try (OperatorSession session =
                    new OperatorSession(stage, context, logSink(err), allowDestructive(), inProcessCatalog)) {
                session.withClockWithin(tolerance);
                // A payload the handler will refuse writes nothing, on an emulator's tables neither.
                if (session.runtime.accepts(payload)) {
                    session.withTables();
                }
                StructuredLog log = dev.punctual.handler.Wiring.log(logSink(err), clock);
                InvocationResult result =
                        session.runtime.handle(payload, deadline(session.catalog, tolerance), log, progress(err));
                String json = finish(ResultJson.render(result), session.catalog, err);
                return ResultOutput.print(json, !output.isJson(), spec.qualifiedName(), out, err);
            }
        }

        /** Told of each occurrence as it ends; a replay prints its progress. */
        OccurrenceListener progress(PrintWriter err) {
            return (definition, outcome, log) -> {};
        }

        /** The result as printed; a replay adds where to continue. */
        String finish(String json, dev.punctual.job.JobCatalog catalog, PrintWriter err) {
            return json;
        }

        int remotely(String payload, PrintWriter out, PrintWriter err) {
            try (Remote remote = Remote.open(context, stage, job(), catalog())) {
                RemoteInvocation.Answer answer = remote.invocation().invoke(remote.pool(), payload, verbose);
                return printAnswer(answer, out, err);
            }
        }

        /** The function's answer: its result as for a local run, or its error said with the alias. */
        int printAnswer(RemoteInvocation.Answer answer, PrintWriter out, PrintWriter err) {
            if (verbose) {
                answer.logTail().forEach(err::println);
            }
            if (answer.functionError().isPresent()) {
                JsonNode error = ResultOutput.parse(answer.body().isBlank() ? "{}" : answer.body());
                throw new RemoteFunctionException("the function " + answer.functionArn() + " threw "
                        + error.path("errorType").asText("an error").replaceAll(".*\\.", "") + ": "
                        + error.path("errorMessage").asText("")
                        + " (what it recorded is in the ledger: punctual status; its log: punctual logs)");
            }
            return ResultOutput.print(answer.body(), !output.isJson(), spec.qualifiedName(), out, err);
        }

        String json(Map<String, Object> fields) {
            try {
                return Json.mapper().writeValueAsString(fields);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Command(
            name = "invoke",
            mixinStandardHelpOptions = true,
            description = "Runs a payload (see events/) in the stage's function; with --local or --endpoint,"
                    + " in this JVM.")
    public static final class Invoke extends Base {
        @Option(
                names = "--event",
                required = true,
                paramLabel = "FILE",
                description = "A payload file, e.g. events/run-JOB.json; - reads standard input")
        Path event;

        /** Read once: standard input cannot be read twice. */
        private String payload;

        public Invoke(CliContext context) {
            super(context);
        }

        @Override
        Optional<String> job() {
            return Optional.ofNullable(ResultOutput.text(ResultOutput.parseOrEmpty(payload()), "job"));
        }

        @Override
        String payload() {
            if (payload == null) {
                payload = read();
            }
            return payload;
        }

        private String read() {
            try {
                if (event.toString().equals("-")) {
                    return new String(context.stdin().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                }
                return Files.readString(event);
            } catch (java.nio.file.NoSuchFileException e) {
                // The exception's message is the path again ("cannot read 'x': x"): say what is wrong.
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--event: '" + event + "' does not exist; accepted: a payload file, e.g. events/ping.json"
                                + " (events/README.md lists them), or - for standard input");
            } catch (IOException e) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--event: cannot read '" + event + "' (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                                + "); accepted: a readable payload file, or - for standard input");
            }
        }
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = "Runs one job by hand in the stage's function (--local: in this JVM): the occurrence --at,"
                    + " or the latest one due.")
    public static final class Run extends Base {
        @Parameters(
                index = "0",
                paramLabel = "JOB",
                description = "The job id",
                completionCandidates = Completions.JobIds.class)
        String job;

        @Option(
                names = "--at",
                paramLabel = "INSTANT",
                description = "An occurrence of the job, e.g. 2026-11-30T14:00:00Z")
        String at;

        @Option(names = "--force", description = "Re-run even if the occurrence already succeeded")
        boolean force;

        @Option(
                names = "--entity",
                paramLabel = "ENTITY",
                description = "The entity to run, for a per-entity job (required for one, refused for any other):"
                        + " its schedule in the stage's entity group gives the zone, expression and parameters, as in"
                        + " its scheduled delivery; its runs are kept under JOB:ENTITY")
        String entityId;

        @Option(
                names = "--dry-run",
                description = "Claim, write and send nothing; show what the job would do (its preview counts)")
        boolean dryRun;

        @Option(
                names = "--allow-destructive",
                description = "With --local: let a destructive job run for this one command, whatever the stage"
                        + " allows (the one-off verification of docs/runbook.md)")
        boolean destructive;

        @Override
        boolean allowDestructive() {
            return destructive;
        }

        public Run(CliContext context) {
            super(context);
        }

        public Run(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        Optional<String> job() {
            return Optional.of(job);
        }

        @Override
        String payload() {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("kind", "run");
            p.put("job", job);
            Instant atInstant = at == null ? null : InstantArgument.parse(spec.commandLine(), "--at", at);
            entity(job, Optional.ofNullable(entityId)).ifPresent(e -> p.putAll(e.fields()));
            if (atInstant != null) {
                p.put("at", atInstant.toString());
            }
            p.put("force", force);
            if (dryRun) {
                p.put(ScheduledPayload.DRY_RUN, true);
            }
            return json(p);
        }
    }

    @Command(
            name = "replay",
            mixinStandardHelpOptions = true,
            description = "Runs a job's occurrences in [--from, --to), oldest first, in the stage's function (split"
                    + " over invocations as its time needs); done ones are skipped and not counted in --max.")
    public static final class Replay extends Base {
        @Parameters(
                index = "0",
                paramLabel = "JOB",
                description = "The job id",
                completionCandidates = Completions.JobIds.class)
        String job;

        @Option(names = "--from", required = true, paramLabel = "INSTANT", description = "Start, inclusive")
        String from;

        @Option(names = "--to", required = true, paramLabel = "INSTANT", description = "End, exclusive")
        String to;

        @Option(
                names = "--max",
                paramLabel = "N",
                defaultValue = "100",
                description = "At most N occurrences to run (1-1000, default ${DEFAULT-VALUE}); done ones do not count")
        int max;

        @Option(
                names = "--dry-run",
                description = "Only list what would run (done ones marked ALREADY_DONE); write nothing")
        boolean dryRun;

        @Option(
                names = "--force",
                description = "Run occurrences past the job's start deadline too (otherwise recorded as"
                        + " SKIP DEADLINE_PASSED); never re-runs a done one")
        boolean force;

        @Option(
                names = "--entity",
                paramLabel = "ENTITY",
                description = "The entity to replay, for a per-entity job (required for one, refused for any other):"
                        + " the occurrences of its schedule in the stage's entity group (its zone and expression),"
                        + " kept under JOB:ENTITY")
        String entityId;

        public Replay(CliContext context) {
            super(context);
        }

        public Replay(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        private Optional<EntityDelivery> entity() {
            return entity(job, Optional.ofNullable(entityId));
        }

        /** What the progress lines name: the job, or for an entity its ledger id JOB:ENTITY. */
        private String subject() {
            return entity().map(EntityDelivery::ledgerId).orElse(job);
        }

        @Override
        Optional<String> job() {
            return Optional.of(job);
        }

        @Override
        String finish(String json, dev.punctual.job.JobCatalog catalog, PrintWriter err) {
            return catalog.find(job)
                    .map(definition -> ReplayContinuation.withNextFrom(
                            json,
                            subject(),
                            entity().map(EntityDelivery::occurrences).orElse(definition.schedule()),
                            err))
                    .orElse(json);
        }

        /**
         * In the stage's function, split into as many invocations as its time budget needs: each runs
         * what its deadline allows and reports the rest as {@code DEADLINE}; the next starts there.
         */
        @Override
        int remotely(String payload, PrintWriter out, PrintWriter err) {
            Instant fromInstant = InstantArgument.parse(spec.commandLine(), "--from", from);
            Instant toInstant = InstantArgument.parse(spec.commandLine(), "--to", to);
            try (Remote remote = Remote.open(context, stage, job(), catalog())) {
                RemoteReplay replay = new RemoteReplay(
                        remote.invocation(),
                        remote.pool(),
                        remote.definition().orElseThrow(),
                        entity(),
                        max,
                        dryRun,
                        force,
                        verbose,
                        err);
                RemoteReplay.Outcome outcome = replay.run(fromInstant, toInstant);
                if (outcome.failure().isPresent()) {
                    return printAnswer(outcome.failure().get(), out, err);
                }
                String json = ReplayContinuation.withNextFrom(
                        outcome.json(),
                        subject(),
                        entity().map(EntityDelivery::occurrences)
                                .orElse(remote.definition().orElseThrow().schedule()),
                        err);
                return ResultOutput.print(json, !output.isJson(), spec.qualifiedName(), out, err);
            }
        }

        /** One short line per occurrence as it ends, on stderr, unless --verbose prints the log itself. */
        @Override
        OccurrenceListener progress(PrintWriter err) {
            int[] done = {0};
            return (definition, outcome, log) -> {
                if (!verbose) {
                    done[0]++;
                    err.println("replay " + subject() + ": " + done[0] + " done (" + outcome.occurrence() + " "
                            + outcome.verdict() + " " + outcome.reason().wire() + ")");
                }
            };
        }

        @Override
        String payload() {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("kind", "replay");
            p.put("job", job);
            Instant fromInstant = InstantArgument.parse(spec.commandLine(), "--from", from);
            Instant toInstant = InstantArgument.parse(spec.commandLine(), "--to", to);
            entity().ifPresent(e -> p.putAll(e.fields()));
            p.put("from", fromInstant.toString());
            p.put("to", toInstant.toString());
            p.put("max", max);
            // Only when set: a function older than the field's rename reads a replay without it.
            if (dryRun) {
                p.put(ScheduledPayload.DRY_RUN, true);
            }
            // Only when set, like dry_run: a function from before the start deadline reads the replay as before.
            if (force) {
                p.put(ScheduledPayload.FORCE, true);
            }
            return json(p);
        }
    }
}
