package dev.punctual.cli.stage;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorNames;
import dev.punctual.handler.DeclaredTables;
import dev.punctual.handler.Wiring;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobTable;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.runtime.Catalogs;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.eventbridge.model.ResourceAlreadyExistsException;

/**
 * One CLI command's connection to a stage: the same wiring the Lambda handler uses, on the tables of a
 * deployed stage (found by {@code --stage}) or of an emulator ({@code --endpoint}).
 */
public final class OperatorSession implements AutoCloseable {

    public final JobCatalog catalog;
    final Wiring.Clients clients;
    public final PunctualRuntime runtime;
    final StageFlags flags;

    /** The deployed stage, when the session works on one (not on an emulator). */
    public final Optional<DeployedStage> deployed;

    private final CliContext context;
    private final String ledgerTable;

    /** On an emulator: the tables this session's commands need, created only once they are about to be used. */
    private final Optional<EmulatorTables> emulatorTables;

    private final Region emulatorRegion;

    private record EmulatorTables(
            String ledger,
            JobCatalog definitions,
            Map<String, String> names,
            String bus,
            String endpoint,
            String stage) {}

    public OperatorSession(StageOptions options, CliContext context, Consumer<String> logSink) {
        this(options, context, logSink, false);
    }

    /** @param allowDestructive lets destructive jobs run in this one session (a one-off verification) */
    public OperatorSession(
            StageOptions options, CliContext context, Consumer<String> logSink, boolean allowDestructive) {
        this(options, context, logSink, allowDestructive, null);
    }

    /**
     * @param ownCatalog a test's catalog, run in this JVM instead of the one this CLI was built with; null for
     *     that one
     */
    public OperatorSession(
            StageOptions options,
            CliContext context,
            Consumer<String> logSink,
            boolean allowDestructive,
            JobCatalog ownCatalog) {
        this.context = context;
        StageFlags defaults = StageFlags.defaultsFor(options.stageName());
        this.flags = allowDestructive
                ? new StageFlags(
                        defaults.stage(),
                        defaults.schedulesEnabled(),
                        defaults.externalDeliveryEnabled(),
                        true,
                        defaults.lockWait())
                : defaults;
        boolean emulator = options.emulator();
        if (emulator) {
            requireUrl(options.endpoint);
        }
        Region region = emulator
                ? emulatorRegion(context, options.region)
                : context.aws().region(options.region);
        this.deployed =
                emulator ? Optional.empty() : Optional.of(discover(context, region, options.stageName(), flags));
        String ledger = deployed.map(DeployedStage::ledgerTable)
                .map(found -> options.ledgerTableOption().orElse(found))
                .orElseGet(options::emulatorLedgerTable);
        this.ledgerTable = ledger;
        JobCatalog definitions = ownCatalog != null ? ownCatalog : definitions(flags);
        Map<String, String> tables = options.jobTables(
                definitions,
                deployed.<Map<String, String>>map(DeployedStage::jobTables)
                        .orElseGet(() -> options.emulatorJobTables(definitions)));
        Map<String, String> env = new HashMap<>(flags.toEnvironment());
        env.putAll(new StageResources(ledger, "punctual-" + options.stageName(), "cli").toEnvironment());
        env.putAll(definitions.tableEnvironment(tables));
        env.put("AWS_REGION", region.id());
        if (emulator) {
            env.put(Wiring.ENDPOINT, options.endpoint);
            // Long jobs' executions: moto's Step Functions answers their starts, this process runs their steps.
            env.put(
                    dev.punctual.longrun.stepfunctions.StepFunctionsExecutions.PREFIX_ENV,
                    dev.punctual.longrun.stepfunctions.EmulatorStateMachines.prefix(region, options.stageName()));
            this.clients = Wiring.clients(
                    env,
                    StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-local", "punctual-local")));
        } else {
            context.aws().dynamoDbEndpoint().ifPresent(uri -> env.put(Wiring.ENDPOINT, uri.toString()));
            this.clients = Wiring.clients(env, context.aws().credentials());
        }
        this.emulatorTables = emulator
                ? Optional.of(new EmulatorTables(
                        ledger,
                        definitions,
                        tables,
                        "punctual-" + options.stageName(),
                        options.endpoint,
                        options.stageName()))
                : Optional.empty();
        this.catalog = ownCatalog != null ? ownCatalog : Wiring.catalog(env, context.clock());
        this.runtime = Wiring.runtime(env, clients, catalog, context.clock(), context.sleeper(), logSink, emulator);
        this.emulatorRegion = region;
    }

    /**
     * On an emulator, creates the ledger and the declared tables that are missing; nothing elsewhere (a
     * deployed stage's tables are the stack's). Called once the command's input is known to be valid, so
     * a refused payload or option leaves the emulator as it found it.
     */
    public OperatorSession withTables() {
        emulatorTables.ifPresent(t -> {
            LedgerTable.createIfMissing(clients.dynamo(), t.ledger());
            for (JobTable table : t.definitions().tables()) {
                DeclaredTables.createIfMissing(
                        clients.dynamo(), table, t.names().get(table.name()));
            }
            // The long jobs' state machines, under the names the stage would deploy (decision 0039, 6).
            dev.punctual.longrun.stepfunctions.EmulatorStateMachines.createIfMissing(
                    java.net.URI.create(t.endpoint()), emulatorRegion, t.stage(), t.definitions());
            // The stage's bus too, so that the lifecycle events a run publishes land (without it every
            // run's log said the bus does not exist, which --verbose showed).
            try {
                clients.events().createEventBus(b -> b.name(t.bus()));
            } catch (ResourceAlreadyExistsException exists) {
                // created by an earlier command on this emulator
            }
        });
        return this;
    }

    /**
     * Refuses to go on when this machine's clock is provably off DynamoDB's by more than {@code tolerance}
     * (when the context compares clocks): everything this session writes is timed by that clock.
     */
    public OperatorSession withClockWithin(Duration tolerance) {
        if (context.comparesClock()) {
            ServerClock.requireWithin(clients.dynamo(), ledgerTable, context.clock(), tolerance);
        }
        return this;
    }

    /** The stage's outputs, for the pools of the catalog this CLI was built with. */
    public static DeployedStage discover(CliContext context, Region region, String stage, StageFlags flags) {
        List<String> pools = definitions(flags).pools().stream()
                .map(dev.punctual.job.FunctionPool::name)
                .toList();
        try (CloudFormationClient cloudFormation = context.aws().cloudFormation(region)) {
            return StageDiscovery.find(cloudFormation, region.id(), stage, pools);
        }
    }

    /** The catalog's definitions alone (nothing connects): what a remote command needs to pick a pool. */
    public static JobCatalog definitions(StageFlags flags) {
        return Catalogs.load(JobEnvironment.definitionsOnly(flags));
    }

    /** An emulator's region: {@code --region}, else {@code AWS_REGION}, else us-east-1 (no profile is read). */
    public static Region emulatorRegion(CliContext context, String option) {
        return option != null
                ? Region.of(OperatorNames.region("--region", option))
                : regionOr(context, Region.US_EAST_1);
    }

    private static Region regionOr(CliContext context, Region fallback) {
        String fromEnv = context.aws().env().get("AWS_REGION");
        return fromEnv != null && !fromEnv.isBlank()
                ? Region.of(OperatorNames.region("AWS_REGION", fromEnv))
                : fallback;
    }

    @Override
    public void close() {
        clients.dynamo().close();
        clients.events().close();
    }

    /** The SDK would fail later with a raw NullPointerException ("URI scheme ... must not be null"). */
    public static void requireUrl(String endpoint) {
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
