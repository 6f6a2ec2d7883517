package dev.punctual.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The operator CLI, the Main-Class of punctual.jar. Subcommands join as the features they drive land. */
@Command(
        name = "punctual",
        mixinStandardHelpOptions = true,
        versionProvider = PunctualCli.Version.class,
        description = "Scheduled jobs on AWS serverless that take effect once per scheduled occurrence.")
public final class PunctualCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the CLI and returns its exit code, so tests can drive it without exiting the JVM. */
    public static int execute(String... args) {
        return new CommandLine(new PunctualCli()).execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
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
