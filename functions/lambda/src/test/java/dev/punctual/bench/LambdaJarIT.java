package dev.punctual.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.handler.Wiring;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.stage.StageResources;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.FakeLambdaContext;
import dev.punctual.time.OccurrenceCalculator;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The artifact every function pool deploys, run as Lambda runs it: in a fresh JVM with nothing else on
 * its class path but the probe that plays Lambda's part. The unit tests run the same code from the
 * modules' class paths, which would hide a class the shaded jar lost (its filters drop the SDK's legacy
 * endpoint metadata, decision 0023).
 */
class LambdaJarIT {

    private static final Path JAR = Path.of("target", "punctual-lambda.jar").toAbsolutePath();

    /** A bound on a probe's life (a delivery takes about a second): past it, the probe is stuck. */
    private static final Duration LIMIT = Duration.ofMinutes(2);

    @Test
    void scheduledDelivery_fromTheLambdaJarAlone_passesAndRecordsTheRun() throws Exception {
        Map<String, String> env =
                ColdStartBenchmark.stage(DynamoDbHarness.backend().endpoint());
        // The job's latest occurrence on the real clock, as the scheduler would deliver it now.
        Clock clock = Clock.systemUTC();
        Instant occurrence = OccurrenceCalculator.of(
                        Wiring.catalog(env, clock).require("daily-report").schedule())
                .previous(clock.instant())
                .orElseThrow();

        Result run = run(env, ColdStartProbe.class.getName(), List.of("handler", occurrence.toString()));

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output())
                .as("the outcome line, on stdout as Lambda's log")
                .contains("\"message\":\"occurrence outcome\"")
                .contains("\"job\":\"daily-report\"")
                .contains("\"outcome\":\"PASS\"");
        try (DynamoDbClient dynamo = DynamoDbHarness.newClient(b -> {})) {
            Optional<RunRecord> record = ledger(dynamo, env).run(new RunKey("daily-report", occurrence));
            assertThat(record).map(RunRecord::status).contains(RunStatus.SUCCEEDED);
        }
    }

    @Test
    void realEndpoints_resolveFromTheLambdaJarAlone_withoutTheLegacyMetadata() throws Exception {
        Result run = run(Map.of(), EndpointProbe.class.getName(), List.of("eu-central-1"));

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("dynamodb https://dynamodb.eu-central-1.amazonaws.com")
                .contains("events https://events.eu-central-1.amazonaws.com");
    }

    private static RunLedger ledger(DynamoDbClient dynamo, Map<String, String> env) {
        return DynamoDbRunLedger.create(
                dynamo,
                env.get(StageResources.LEDGER_TABLE),
                Clock.systemUTC(),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                Sleeper.real());
    }

    /** The jar, this module's test classes (the probes) and the Lambda context they hand the handler. */
    private static Result run(Map<String, String> env, String main, List<String> args)
            throws IOException, InterruptedException, URISyntaxException {
        assertThat(JAR).as("built by `package`, before this test's phase").exists();
        String probes = Path.of("target", "test-classes").toAbsolutePath()
                + File.pathSeparator
                + Path.of(FakeLambdaContext.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI())
                        .toAbsolutePath();
        Path output = Files.createTempFile("lambda-jar-", ".out");
        Process process = ColdStartBenchmark.probe(JAR, probes, env, main, args)
                .redirectOutput(output.toFile())
                .start();
        boolean exited = process.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        Files.delete(output);
        assertThat(exited)
                .as("the probe ended within %s (a hang, e.g. a deadlock in init):%n%s", LIMIT, text)
                .isTrue();
        return new Result(process.exitValue(), text);
    }

    private record Result(int exit, String output) {}
}
