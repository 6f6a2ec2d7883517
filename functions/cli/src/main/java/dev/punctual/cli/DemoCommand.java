package dev.punctual.cli;

import dev.punctual.demo.Demo;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code punctual demo}: the README's first command. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Runs the real handler through a simulated two-day window against a local emulator"
                + " (started and stopped here): DST, an outage with bounded catch-up, a duplicate delivery,"
                + " maintenance, a refused destructive job and suppressed delivery.")
final class DemoCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--endpoint",
            paramLabel = "URL",
            description = "Use this DynamoDB-compatible endpoint instead of starting moto")
    String endpoint;

    @Option(
            names = "--log-file",
            paramLabel = "PATH",
            description = "Write the structured JSON log lines here (default: a new file in the temporary directory)")
    Path logFile;

    @Override
    public Integer call() {
        new Demo(
                        endpoint,
                        logFile,
                        spec.commandLine().getOut(),
                        spec.commandLine().getErr())
                .run();
        return 0;
    }
}
