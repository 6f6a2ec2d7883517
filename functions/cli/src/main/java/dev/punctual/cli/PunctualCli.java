package dev.punctual.cli;

import dev.punctual.cli.control.ApproveCommand;
import dev.punctual.cli.control.BlackoutCommand;
import dev.punctual.cli.control.CancelCommand;
import dev.punctual.cli.control.MaintenanceCommand;
import dev.punctual.cli.control.PauseCommand;
import dev.punctual.cli.control.SkipCommand;
import dev.punctual.cli.input.CheckedOptions;
import dev.punctual.cli.output.ErrorReport;
import dev.punctual.cli.output.ExitCodes;
import dev.punctual.cli.output.RefusalLine;
import dev.punctual.cli.reading.HistoryCommand;
import dev.punctual.cli.reading.JobsCommand;
import dev.punctual.cli.reading.LogsCommand;
import dev.punctual.cli.reading.PlanCommand;
import dev.punctual.cli.reading.StatusCommand;
import dev.punctual.cli.running.InvocationCommands;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.RemoteFunctionException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The operator CLI, the Main-Class of punctual.jar. Subcommands join as the features they drive land. */
@Command(
        name = "punctual",
        mixinStandardHelpOptions = true,
        versionProvider = PunctualCli.Version.class,
        description = "Scheduled jobs on AWS serverless that take effect once per scheduled occurrence.")
public final class PunctualCli implements Runnable {
    /** Exit code for input the CLI refuses: bad arguments, expressions, zones or instants. */
    public static final int INVALID_INPUT = ExitCodes.INVALID_INPUT;

    /** Exit code for a failure that is not the caller's input. */
    public static final int FAILURE = ExitCodes.FAILURE;

    /**
     * Exit code for a run or replay that ran nothing, though nothing failed: every occurrence was skipped
     * (maintenance, a busy lock group, already done, a refused destructive job). A dry run exits 0.
     */
    public static final int RAN_NOTHING = ExitCodes.RAN_NOTHING;

    /** What a shell's rc file runs for completion. */
    static final String COMPLETION = "source <(bin/punctual generate-completion)";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the CLI on the process's streams, clock and AWS access and returns its exit code. */
    public static int execute(String... args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        if (versionAlone(args)) {
            return printVersion(out);
        }
        return execute(out, err, CliContext.ofProcess(), args);
    }

    /**
     * Whether the command line is {@code --version} (or {@code -V}) and nothing else: answered before
     * picocli builds the root command, whose annotations cost most of such a start (decision 0052); with
     * anything beside it, picocli answers (the same lines, {@code VersionFastPathTest}).
     */
    static boolean versionAlone(String... args) {
        return args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
    }

    /** What picocli's {@code --version} prints: the version provider's lines, then exit 0. */
    static int printVersion(PrintWriter out) {
        for (String line : new Version().getVersion()) {
            out.println(line);
        }
        out.flush();
        return 0;
    }

    /** Runs the CLI with the given clock and the process's AWS access and input. */
    public static int execute(PrintWriter out, PrintWriter err, Clock clock, String... args) {
        return execute(out, err, CliContext.withClock(clock), args);
    }

    /**
     * Runs the CLI on the given streams, clock and AWS access (loopback endpoints in tests), so tests
     * can drive it without exiting the JVM.
     * Refused input exits {@link #INVALID_INPUT} with one line on {@code err} and nothing on {@code out}.
     */
    public static int execute(PrintWriter out, PrintWriter err, CliContext given, String... args) {
        return execute(out, err, given, UnaryOperator.identity(), args);
    }

    /**
     * {@link #execute(PrintWriter, PrintWriter, CliContext, String...)} with some subcommands built otherwise:
     * the tests' seam for a command on a catalog of their own ({@code schedules}), with the same parsing,
     * error format and exit codes.
     */
    public static int execute(
            PrintWriter out,
            PrintWriter err,
            CliContext given,
            UnaryOperator<Map<String, Supplier<Object>>> replacing,
            String... args) {
        if (versionAlone(args)) {
            return printVersion(out);
        }
        // --profile changes how every client of the command reaches AWS, so it is applied before the
        // commands are built with the context; picocli still parses (and lists) it as the commands' option.
        String profile = ErrorReport.optionValue("--profile", args);
        boolean profileAccepted =
                profile == null || AwsAccess.PROFILE.matcher(profile).matches();
        CliContext context =
                profile != null && profileAccepted ? given.withAws(given.aws().withProfile(profile)) : given;
        CommandLine commandLine = new CommandLine(new PunctualCli());
        Map<String, Supplier<Object>> subcommands = replacing.apply(subcommands(context));
        for (String name : wanted(subcommands.keySet(), args)) {
            commandLine.addSubcommand(name, subcommands.get(name).get());
        }
        // After the subcommands: picocli hands these settings to the subcommands added so far only.
        commandLine
                .setOut(out)
                .setErr(err)
                // The last of a repeated option wins (a script's default, then the person's choice).
                .setOverwrittenOptionsAllowed(true);
        boolean json = ErrorReport.wantsJson(args);
        CommandLine completion = commandLine.getSubcommands().get("generate-completion");
        if (completion != null) {
            completion
                    .getCommandSpec()
                    .usageMessage()
                    .hidden(false)
                    .description("Prints a bash/zsh completion script (how to add it: below)");
            // The command to paste, on a line of its own: in the command list picocli would wrap it.
            commandLine.getCommandSpec().usageMessage().footer("", "Shell completion:  " + COMPLETION);
        }
        commandLine
                .setParameterExceptionHandler(
                        (e, arguments) -> refuse(out, err, e.getCommandLine(), said(e, arguments), json))
                .setExecutionExceptionHandler((e, command, parseResult) -> fail(out, err, command, e, json))
                .setExecutionStrategy(parseResult -> {
                    checkBeforeActing(parseResult);
                    return new CommandLine.RunLast().execute(parseResult);
                });
        if (!profileAccepted) {
            CommandLine named = commandLine.getSubcommands().size() == 1
                    ? commandLine.getSubcommands().values().iterator().next()
                    : commandLine;
            return refuse(
                    out,
                    err,
                    named,
                    "--profile: '" + profile + "' is not a profile name; accepted: up to"
                            + " 64 of A-Z, a-z, 0-9, _, ., @, + and -, as in ~/.aws/config",
                    json);
        }
        try {
            return commandLine.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * Every contradiction of options refused before any command runs: each command on the command line
     * and each of its mixins (at any depth) that can contradict itself ({@link CheckedOptions}) is checked
     * first, so a refusal never comes after the command has acted. A {@code ParameterException}
     * thrown here is reported by the parameter exception handler, as any parse error.
     */
    static void checkBeforeActing(CommandLine.ParseResult parseResult) {
        for (CommandLine command : parseResult.asCommandLineList()) {
            check(command.getCommandSpec());
        }
    }

    private static void check(CommandLine.Model.CommandSpec spec) {
        if (spec.userObject() instanceof CheckedOptions options) {
            options.check();
        }
        spec.mixins().values().forEach(PunctualCli::check);
    }

    /**
     * Refused input, in one format: {@code punctual <command>: <field>: <problem>; accepted: ...} on stderr,
     * exit 2; in JSON mode also the same as one JSON error object on stdout. The message echoes what was
     * typed, so it is redacted and bounded ({@link RefusalLine}) before either is written.
     */
    private static int refuse(PrintWriter out, PrintWriter err, CommandLine command, String message, boolean json) {
        String line = RefusalLine.of(message);
        err.println(command.getCommandSpec().qualifiedName() + ": " + line);
        if (json) {
            out.println(ErrorReport.json(command.getCommandSpec().qualifiedName(), line, INVALID_INPUT));
        }
        return INVALID_INPUT;
    }

    /**
     * A parse error of this command line in the CLI's format: {@link ErrorReport#said(CommandLine.ParameterException)},
     * except where the whole command line shows what the mistake was (a hold's command without {@code --}).
     */
    private static String said(CommandLine.ParameterException e, String... args) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()) {
            String hold = MaintenanceCommand.commandWithoutSeparator(
                    unmatched.getUnmatched().get(0), args);
            if (hold != null) {
                return hold;
            }
        }
        return ErrorReport.said(e);
    }

    private static int fail(PrintWriter out, PrintWriter err, CommandLine command, Exception e, boolean json) {
        if (e instanceof dev.punctual.RefusedInputException) {
            return refuse(out, err, command, e.getMessage(), json);
        }
        String endpoint = command.getParseResult() == null
                ? null
                : command.getParseResult().matchedOptionValue("--endpoint", null);
        // The endpoint and the SDK's message can carry what was typed too (http://user:pw@host).
        String said = "failed: "
                + RefusalLine.of(
                        e instanceof RemoteFunctionException
                                ? e.getMessage()
                                : infrastructure(e, endpoint, offersEmulator(command)));
        err.println(command.getCommandSpec().qualifiedName() + ": " + said);
        if (json) {
            out.println(ErrorReport.json(command.getCommandSpec().qualifiedName(), said, FAILURE));
        }
        return FAILURE;
    }

    /**
     * An SDK failure said the way an operator can act on it: which credentials or endpoint, and what
     * to try, instead of the SDK's class name and its 700-character chain of providers.
     */
    static String infrastructure(Exception e) {
        return infrastructure(e, null, false);
    }

    /**
     * Whether a hint may suggest {@code --endpoint}: only to a command that has it and works on an
     * emulator ({@code verify} has no such option; {@code logs} has it only to refuse it).
     */
    static boolean offersEmulator(CommandLine command) {
        CommandLine.Model.CommandSpec spec = command.getCommandSpec();
        return spec.findOption("--endpoint") != null && !spec.name().equals("logs");
    }

    /**
     * @param endpoint the {@code --endpoint} given, if any: named when it cannot be reached
     * @param offerEmulator whether the hint may suggest {@code --endpoint}
     */
    static String infrastructure(Exception e, String endpoint, boolean offerEmulator) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("Unable to load credentials")) {
            return "no AWS credentials found (environment, profile, SSO, container or instance role);"
                    + " hint: set AWS_PROFILE or run aws sso login"
                    + (offerEmulator ? ", or pass --endpoint URL for a local emulator" : "");
        }
        if (message.contains("Unable to execute HTTP request")) {
            String cause = message.replaceAll(".*request: ", "");
            return endpoint != null
                    ? "could not reach the endpoint " + endpoint + " (" + cause
                            + "); hint: is the emulator running there? punctual emulator starts one and prints its URL"
                    : "could not reach AWS (" + cause + "); hint: check the network and --region / AWS_REGION";
        }
        return e.getClass().getSimpleName() + ": " + message;
    }

    /** Every subcommand, in the order --help lists them, each built only when wanted. */
    static Map<String, Supplier<Object>> subcommands(CliContext context) {
        Clock clock = context.clock();
        Map<String, Supplier<Object>> all = new LinkedHashMap<>();
        all.put("plan", () -> new PlanCommand(clock));
        all.put("invoke", () -> new InvocationCommands.Invoke(context));
        all.put("run", () -> new InvocationCommands.Run(context));
        all.put("replay", () -> new InvocationCommands.Replay(context));
        all.put("jobs", () -> new JobsCommand(context));
        all.put("status", () -> new StatusCommand(context));
        all.put("history", () -> new HistoryCommand(context));
        all.put("maintenance", () -> new MaintenanceCommand(context));
        all.put("skip", () -> new SkipCommand.Skip(context));
        all.put("unskip", () -> new SkipCommand.Unskipping(context));
        all.put("pause", () -> new PauseCommand.Pause(context));
        all.put("resume", () -> new PauseCommand.Resume(context));
        all.put("approve", () -> new ApproveCommand(context));
        all.put("cancel", () -> new CancelCommand(context));
        all.put("blackout", () -> BlackoutCommand.commandLine(context, SchedulesCommand::catalogOf));
        all.put("logs", () -> new LogsCommand(context));
        all.put("schedules", () -> SchedulesCommand.commandLine(context, SchedulesCommand::catalogOf));
        all.put("demo", DemoCommand::new);
        all.put("emulator", EmulatorCommand::new);
        all.put("generate-completion", picocli.AutoComplete.GenerateCompletion::new);
        all.put("verify", () -> new VerifyCommand(context));
        all.put("init", InitCommand::new);
        return all;
    }

    /**
     * The subcommands this command line needs. Picocli walks each one's options reflectively when it is
     * added, which was most of the CLI's start-up (docs/benchmarks.md, "CLI start-up"): a command line
     * that names a subcommand gets that one, {@code --version} alone gets none, and anything else (no
     * argument, {@code --help}, a mistyped command, the completion script) gets all of them, for the
     * usage list and the "did you mean".
     */
    public static Collection<String> wanted(Collection<String> names, String... args) {
        String first =
                Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse(null);
        if (first == null) {
            boolean versionOnly =
                    args.length > 0 && Arrays.stream(args).allMatch(a -> a.equals("--version") || a.equals("-V"));
            return versionOnly ? List.of() : names;
        }
        boolean known = names.contains(first) && !first.equals("generate-completion");
        return known && args[0].equals(first) ? List.of(first) : names;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Reads the version Maven wrote into the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = PunctualCli.class.getPackage().getImplementationVersion();
            return new String[] {"punctual " + (version == null ? "(development build)" : version)};
        }
    }
}
