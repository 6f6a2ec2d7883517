package dev.punctual.cli;

import dev.punctual.time.ScheduleExpressionException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
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
    public static final int INVALID_INPUT = 2;

    /** Exit code for a failure that is not the caller's input. */
    public static final int FAILURE = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the CLI on the process's streams, clock and AWS access and returns its exit code. */
    public static int execute(String... args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        return execute(out, err, CliContext.ofProcess(), args);
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
    public static int execute(PrintWriter out, PrintWriter err, CliContext context, String... args) {
        Clock clock = context.clock();
        CommandLine commandLine = new CommandLine(new PunctualCli())
                .addSubcommand(new PlanCommand(clock))
                .addSubcommand(new InvocationCommands.Invoke(context))
                .addSubcommand(new InvocationCommands.Run(context))
                .addSubcommand(new InvocationCommands.Replay(context))
                .addSubcommand(new JobsCommand(clock))
                .addSubcommand(new StatusCommand(context))
                .addSubcommand(new MaintenanceCommand(context))
                .addSubcommand(new DemoCommand())
                .addSubcommand(new VerifyCommand(context))
                .setOut(out)
                .setErr(err)
                .setParameterExceptionHandler((e, arguments) -> refuse(err, e.getCommandLine(), e.getMessage()))
                .setExecutionExceptionHandler((e, command, parseResult) -> fail(err, command, e));
        try {
            return commandLine.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private static int refuse(PrintWriter err, CommandLine command, String message) {
        err.println(command.getCommandSpec().qualifiedName() + ": " + oneLine(message));
        return INVALID_INPUT;
    }

    private static int fail(PrintWriter err, CommandLine command, Exception e) {
        if (e instanceof ScheduleExpressionException
                || e instanceof dev.punctual.stage.StageConfigException
                || e instanceof OperatorInputException) {
            return refuse(err, command, e.getMessage());
        }
        String said = e instanceof RemoteFunctionException ? e.getMessage() : infrastructure(e);
        err.println(command.getCommandSpec().qualifiedName() + ": failed: " + oneLine(said));
        return FAILURE;
    }

    /**
     * An SDK failure said the way an operator can act on it: which credentials or endpoint, and what
     * to try, instead of the SDK's class name and its 700-character chain of providers.
     */
    static String infrastructure(Exception e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("Unable to load credentials")) {
            return "no AWS credentials found (environment, profile, SSO, container or instance role);"
                    + " hint: set AWS_PROFILE or run aws sso login, or pass --endpoint URL for a local emulator";
        }
        if (message.contains("Unable to execute HTTP request")) {
            return "could not reach the DynamoDB endpoint (" + message.replaceAll(".*request: ", "")
                    + "); hint: check --endpoint (is the emulator running? punctual's tests start it themselves)"
                    + " or the network to AWS";
        }
        return e.getClass().getSimpleName() + ": " + message;
    }

    private static String oneLine(String message) {
        return message == null
                ? "invalid input"
                : message.strip().replaceFirst("^Error: ", "").replaceAll("\\s*\\R\\s*", " ");
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
