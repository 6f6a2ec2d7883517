package dev.punctual.cli;

import dev.punctual.handler.Wiring;
import dev.punctual.job.JobCatalog;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** One CLI command's connection to a stage: the same wiring the Lambda handler uses. */
final class OperatorSession implements AutoCloseable {

    final JobCatalog catalog;
    final Wiring.Clients clients;
    final PunctualRuntime runtime;
    final StageFlags flags;

    OperatorSession(StageOptions options, Clock clock, Consumer<String> logSink) {
        this(options, clock, logSink, false);
    }

    /** @param allowDestructive lets destructive jobs run in this one session (a one-off verification) */
    OperatorSession(StageOptions options, Clock clock, Consumer<String> logSink, boolean allowDestructive) {
        StageFlags defaults = StageFlags.defaultsFor(options.stage);
        this.flags = allowDestructive
                ? new StageFlags(
                        defaults.stage(),
                        defaults.schedulesEnabled(),
                        defaults.externalDeliveryEnabled(),
                        true,
                        defaults.lockWait())
                : defaults;
        Map<String, String> env = new HashMap<>(flags.toEnvironment());
        env.putAll(
                new StageResources(options.ledgerTable(), options.domainTableName(), "punctual-" + options.stage, "cli")
                        .toEnvironment());
        env.put("AWS_REGION", region(options));
        boolean emulator = options.endpoint != null && !options.endpoint.isBlank();
        if (emulator) {
            requireUrl(options.endpoint);
        }
        if (emulator) {
            env.put(Wiring.ENDPOINT, options.endpoint);
        }
        this.clients = emulator
                ? Wiring.clients(
                        env,
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create("punctual-local", "punctual-local")))
                : Wiring.clients(env, DefaultCredentialsProvider.builder().build());
        if (emulator) {
            LedgerTable.createIfMissing(clients.dynamo(), options.ledgerTable());
            LedgerTable.createIfMissing(clients.dynamo(), options.domainTableName());
        }
        this.catalog = Wiring.catalog(env, clock);
        this.runtime = Wiring.runtime(env, clients, catalog, clock, logSink);
    }

    private static String region(StageOptions options) {
        if (options.region != null) {
            return options.region;
        }
        String fromEnv = System.getenv("AWS_REGION");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        if (options.endpoint != null) {
            return "us-east-1";
        }
        throw new OperatorInputException(
                "--region: no region given and AWS_REGION is not set; accepted: e.g. --region eu-central-1");
    }

    @Override
    public void close() {
        clients.dynamo().close();
        clients.events().close();
    }

    /** The SDK would fail later with a raw NullPointerException ("URI scheme ... must not be null"). */
    private static void requireUrl(String endpoint) {
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null
                || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                || uri.getHost() == null) {
            throw new OperatorInputException("--endpoint: '" + endpoint
                    + "' is not an http(s) URL with a host; accepted: e.g. http://127.0.0.1:4566");
        }
    }
}
