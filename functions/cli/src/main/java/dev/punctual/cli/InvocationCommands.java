package dev.punctual.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code invoke}, {@code run} and {@code replay}: the handler, in-process, with the same lock and ledger. */
final class InvocationCommands {

    /** An operator's command may take as long as the longest Lambda could. */
    static final Duration CLI_BUDGET = Duration.ofMinutes(15);

    private static final ObjectMapper JSON = new ObjectMapper();

    private InvocationCommands() {}

    /** Shared: run one payload through the runtime and print the result. */
    abstract static class Base implements Callable<Integer> {
        final Clock clock;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        StageOptions stage;

        @Option(names = "--verbose", description = "Also print the structured log lines on stderr")
        boolean verbose;

        Base(Clock clock) {
            this.clock = clock;
        }

        abstract String payload();

        boolean allowDestructive() {
            return false;
        }

        /** Progress for long runs: one short line per occurrence outcome, on stderr. */
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
            if (allowDestructive()) {
                err.println("warning: destructive jobs are allowed for this one command (stage " + stage.stage + ")");
            }
            // Options are checked before anything connects: a bad --at fails fast, naming the option.
            String payload = payload();
            try (OperatorSession session = new OperatorSession(stage, clock, logSink(err), allowDestructive())) {
                StructuredLog log = dev.punctual.handler.Wiring.log(logSink(err), clock);
                InvocationResult result =
                        session.runtime.handle(payload, Deadline.fromRemaining(clock.instant(), CLI_BUDGET), log);
                return ResultOutput.print(result, stage.readableTable(), out, err);
            }
        }

        String json(Map<String, Object> fields) {
            try {
                return JSON.writeValueAsString(fields);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Command(
            name = "invoke",
            mixinStandardHelpOptions = true,
            description = "Runs the handler in-process on a payload file (see events/).")
    static final class Invoke extends Base {
        @Option(
                names = "--event",
                required = true,
                paramLabel = "FILE",
                description = "A payload, e.g. events/run-daily-report.json")
        Path event;

        Invoke(Clock clock) {
            super(clock);
        }

        @Override
        String payload() {
            try {
                return Files.readString(event);
            } catch (IOException e) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--event: cannot read '" + event + "': " + e.getMessage());
            }
        }
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = "Runs one job by hand: the occurrence --at, or the latest one due.")
    static final class Run extends Base {
        @Parameters(index = "0", paramLabel = "JOB", description = "The job id")
        String job;

        @Option(
                names = "--at",
                paramLabel = "INSTANT",
                description = "An occurrence of the job, e.g. 2026-11-30T14:00:00Z")
        String at;

        @Option(names = "--force", description = "Re-run even if the occurrence already succeeded")
        boolean force;

        @Option(
                names = "--allow-destructive",
                description = "Let a destructive job run for this one command, whatever the stage allows"
                        + " (the one-off verification of docs/runbook.md)")
        boolean destructive;

        @Override
        boolean allowDestructive() {
            return destructive;
        }

        Run(Clock clock) {
            super(clock);
        }

        @Override
        String payload() {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("kind", "run");
            p.put("job", job);
            if (at != null) {
                p.put(
                        "at",
                        InstantArgument.parse(spec.commandLine(), "--at", at).toString());
            }
            p.put("force", force);
            return json(p);
        }
    }

    @Command(
            name = "replay",
            mixinStandardHelpOptions = true,
            description = "Runs a job's occurrences in [--from, --to), oldest first; done ones are skipped.")
    static final class Replay extends Base {
        @Parameters(index = "0", paramLabel = "JOB", description = "The job id")
        String job;

        @Option(names = "--from", required = true, paramLabel = "INSTANT", description = "Start, inclusive")
        String from;

        @Option(names = "--to", required = true, paramLabel = "INSTANT", description = "End, exclusive")
        String to;

        @Option(
                names = "--max",
                paramLabel = "N",
                defaultValue = "100",
                description = "At most N occurrences (1-1000, default ${DEFAULT-VALUE})")
        int max;

        @Option(names = "--dry-run", description = "Only list what would run; write nothing")
        boolean dryRun;

        Replay(Clock clock) {
            super(clock);
        }

        @Override
        Consumer<String> logSink(PrintWriter err) {
            Consumer<String> verboseSink = super.logSink(err);
            int[] done = {0};
            return line -> {
                verboseSink.accept(line);
                if (!verbose && line.contains("\"message\":\"occurrence outcome\"")) {
                    done[0]++;
                    err.println("replay " + job + ": " + done[0] + " done (" + field(line, "occurrence") + " "
                            + field(line, "outcome") + " " + field(line, "reason") + ")");
                }
            };
        }

        @Override
        String payload() {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("kind", "replay");
            p.put("job", job);
            p.put(
                    "from",
                    InstantArgument.parse(spec.commandLine(), "--from", from).toString());
            p.put("to", InstantArgument.parse(spec.commandLine(), "--to", to).toString());
            p.put("max", max);
            p.put("dryRun", dryRun);
            return json(p);
        }

        private static String field(String line, String name) {
            try {
                return JSON.readTree(line).path(name).asText();
            } catch (IOException e) {
                return "?";
            }
        }
    }
}
