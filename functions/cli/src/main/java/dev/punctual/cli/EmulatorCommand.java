package dev.punctual.cli;

import dev.punctual.cli.input.DurationArgument;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.job.JobDefinition;
import dev.punctual.local.MotoServer;
import dev.punctual.stage.StageFlags;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code punctual emulator}: the moto server the tests and the demo use (installed on first use into
 * the cache, docs/decisions/0001), on a free loopback port, until Ctrl-C. Other commands then work on
 * it with {@code --endpoint URL}; they create the stage's tables there on first use.
 */
@Command(
        name = "emulator",
        mixinStandardHelpOptions = true,
        description = "Starts the local AWS emulator (moto: DynamoDB, CloudFormation, Logs, ...) the tests use,"
                + " prints its endpoint for --endpoint, and stops it on Ctrl-C.")
final class EmulatorCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--for",
            paramLabel = "DURATION",
            description = "Stop by itself after this long, e.g. 2h (default: until Ctrl-C)")
    String duration;

    @Override
    public Integer call() throws InterruptedException {
        Duration limit = duration == null ? null : DurationArgument.parse(spec.commandLine(), "--for", duration);
        PrintWriter out = spec.commandLine().getOut();
        MotoServer moto = MotoServer.start();
        out.println("emulator: " + moto.endpoint() + " (" + moto.detail() + ")");
        out.println("try:      bin/punctual jobs");
        out.println("          bin/punctual run " + firstJob() + " --endpoint " + moto.endpoint());
        out.println("          bin/punctual status --endpoint " + moto.endpoint());
        out.println("stop:     Ctrl-C" + (limit == null ? "" : " (or it stops by itself after " + duration + ")"));
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        // Ctrl-C runs the JVM's shutdown hooks: MotoServer's stops the server; this one ends the wait.
        Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "punctual-emulator-stop"));
        if (limit == null) {
            stopped.await();
        } else {
            stopped.await(limit.toMillis(), TimeUnit.MILLISECONDS);
            moto.stop();
            out.println("emulator: stopped after " + duration);
        }
        return 0;
    }

    /**
     * The first job of the catalog on the class path, for the line that shows how to run one; {@code JOB}
     * when there is none to read (the bare tool jar holds no catalog, and the emulator needs none).
     */
    static String firstJob() {
        try {
            return OperatorSession.definitions(StageFlags.defaultsFor("dev")).jobs().stream()
                    .map(JobDefinition::id)
                    .findFirst()
                    .orElse("JOB");
        } catch (RuntimeException | java.util.ServiceConfigurationError noCatalog) {
            return "JOB";
        }
    }
}
