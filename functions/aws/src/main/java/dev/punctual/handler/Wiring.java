package dev.punctual.handler;

import dev.punctual.PunctualException;
import dev.punctual.events.LifecyclePublisher;
import dev.punctual.events.eventbridge.EventBridgeLifecyclePublisher;
import dev.punctual.job.DeliveryMessage;
import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobServices;
import dev.punctual.ledger.DueIndex;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.DynamoDbDueIndex;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.longrun.stepfunctions.StepFunctionsExecutions;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Catalogs;
import dev.punctual.runtime.LedgerHistory;
import dev.punctual.runtime.LifecycleOverdueReports;
import dev.punctual.runtime.LocalExecutionDriver;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.RuntimeServices;
import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageFreshness;
import dev.punctual.stage.StageResources;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClientBuilder;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.SfnClientBuilder;

/**
 * Builds the runtime from a function's environment. SDK clients are created once, with an explicit
 * region and the light URLConnection HTTP client (the warm-up's rehearsal gives its own clients one that
 * answers locally); nothing unique (tokens, ids) is created here, so a
 * SnapStart snapshot taken after this holds nothing two restored copies must not share.
 */
public final class Wiring {

    /** Points the SDK clients at an emulator (CLI and demo only; never set in Lambda). */
    public static final String ENDPOINT = "PUNCTUAL_DYNAMODB_ENDPOINT";

    /**
     * Owner tokens: one fresh value per call, never at init, so two SnapStart copies restored from one
     * snapshot cannot share one.
     */
    private static final Supplier<String> IDS = () -> UUID.randomUUID().toString();

    private Wiring() {}

    /**
     * The connections a runtime needs, kept so the priming hook can warm them.
     *
     * @param credentials what the clients sign with, for a client built later (Step Functions', only where a
     *     long job needs it, decision 0039)
     */
    public record Clients(DynamoDbClient dynamo, EventBridgeClient events, AwsCredentialsProvider credentials) {

        /** Clients whose later ones sign with the default chain (the function's role). */
        public Clients(DynamoDbClient dynamo, EventBridgeClient events) {
            this(dynamo, events, DefaultCredentialsProvider.builder().build());
        }
    }

    public static Clients clients(Map<String, String> env, AwsCredentialsProvider credentials) {
        return new Clients(dynamo(env, credentials), events(env, credentials), credentials);
    }

    /**
     * Starts the handler's warm-up ({@link WarmUp}). The supplier is this class's, never the caller's: a
     * lambda written in a class still being initialised (the handler's holder of its runtime) could not
     * run on another thread until that initialisation ends.
     */
    static WarmUp warmUp(Map<String, String> env) {
        return WarmUp.start(() -> Rehearsal.of(env, new LocalAnswerHttpClient()));
    }

    static DynamoDbClient dynamo(Map<String, String> env, AwsCredentialsProvider credentials) {
        return dynamo(env, credentials, UrlConnectionHttpClient.create());
    }

    static DynamoDbClient dynamo(Map<String, String> env, AwsCredentialsProvider credentials, SdkHttpClient http) {
        DynamoDbClientBuilder dynamo = DynamoDbClient.builder()
                .region(region(env))
                .credentialsProvider(credentials)
                .httpClient(http);
        endpoint(env).ifPresent(dynamo::endpointOverride);
        return dynamo.build();
    }

    static EventBridgeClient events(Map<String, String> env, AwsCredentialsProvider credentials) {
        return events(env, credentials, UrlConnectionHttpClient.create());
    }

    static EventBridgeClient events(Map<String, String> env, AwsCredentialsProvider credentials, SdkHttpClient http) {
        EventBridgeClientBuilder events = EventBridgeClient.builder()
                .region(region(env))
                .credentialsProvider(credentials)
                .httpClient(http);
        endpoint(env).ifPresent(events::endpointOverride);
        return events.build();
    }

    private static Optional<URI> endpoint(Map<String, String> env) {
        String endpoint = env.get(ENDPOINT);
        return endpoint == null || endpoint.isBlank() ? Optional.empty() : Optional.of(URI.create(endpoint));
    }

    /** The team's catalog (found on the class path) and the built-in jobs, for a function's environment. */
    public static JobCatalog catalog(Map<String, String> env, Clock clock) {
        return Catalogs.load(new JobEnvironment(StageFlags.fromEnvironment(env), env, clock));
    }

    /** The runtime of one function: stage flags and resource names from the environment. */
    public static PunctualRuntime runtime(
            Map<String, String> env, Clients clients, JobCatalog catalog, Clock clock, Consumer<String> logSink) {
        return runtime(env, clients, catalog, clock, Sleeper.real(), logSink);
    }

    /**
     * The same with another way to wait (for a busy lock group, for running jobs before maintenance):
     * the operator CLI passes its own, so its tests move a clock instead of sleeping.
     */
    public static PunctualRuntime runtime(
            Map<String, String> env,
            Clients clients,
            JobCatalog catalog,
            Clock clock,
            Sleeper sleeper,
            Consumer<String> logSink) {
        return runtime(env, clients, catalog, clock, sleeper, logSink, false);
    }

    /**
     * The same; with {@code driveLocally}, long jobs' executions are carried out in this process by the
     * {@link LocalExecutionDriver} after the engine (moto's Step Functions on the emulator) answers their
     * start, since moto cannot invoke the function (decision 0039, 6).
     */
    public static PunctualRuntime runtime(
            Map<String, String> env,
            Clients clients,
            JobCatalog catalog,
            Clock clock,
            Sleeper sleeper,
            Consumer<String> logSink,
            boolean driveLocally) {
        StageFlags flags = StageFlags.fromEnvironment(env);
        StageResources resources = StageResources.fromEnvironment(env);
        StructuredLog log = log(logSink, clock);
        RunLedger ledger = DynamoDbRunLedger.create(
                clients.dynamo(), resources.ledgerTable(), clock, IDS, Retention.DEFAULT, sleeper);
        LifecyclePublisher events = new EventBridgeLifecyclePublisher(clients.events(), resources.eventBus(), log);
        java.util.concurrent.atomic.AtomicReference<PunctualRuntime> built =
                new java.util.concurrent.atomic.AtomicReference<>();
        LongExecutions engine = executions(env, catalog, clients.credentials());
        LongExecutions executions = driveLocally && engine != LongExecutions.NONE
                ? new LocalExecutionDriver(engine, built::get, log, clock, sleeper)
                : engine;
        PunctualRuntime runtime = new PunctualRuntime(new RuntimeServices(
                catalog,
                ledger,
                flags,
                events,
                clock,
                sleeper,
                new JobServices(
                        clock,
                        catalog,
                        new LedgerHistory(ledger, dueIndex(clients, resources, catalog)),
                        new LifecycleOverdueReports(events, flags.stage()),
                        // The stage's default freshness bound, as the CDK app wrote it (decision 0042).
                        StageFreshness.fromEnvironment(env)),
                catalog.delivery().orElse(Wiring::noDeliveryPort),
                // A condition's table is named by its variable, as a job's is (every pool is given it).
                new DynamoDbConditionProbe(clients.dynamo(), env::get),
                executions));
        built.set(runtime);
        return runtime;
    }

    /**
     * Long jobs' executions (decision 0039): Step Functions, in a pool the stage gave a state machine prefix
     * (only pools hosting a long job have one); none elsewhere. The client is built here, once, and only
     * then, so a pool without long jobs loads no Step Functions class.
     */
    static LongExecutions executions(Map<String, String> env, JobCatalog catalog, AwsCredentialsProvider credentials) {
        String prefix = env.get(StepFunctionsExecutions.PREFIX_ENV);
        if (prefix == null || prefix.isBlank() || catalog.jobs().stream().noneMatch(JobDefinition::isLong)) {
            return LongExecutions.NONE;
        }
        SfnClientBuilder sfn = SfnClient.builder()
                .region(region(env))
                .credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create());
        endpoint(env).ifPresent(sfn::endpointOverride);
        return new StepFunctionsExecutions(sfn.build(), prefix);
    }

    /**
     * The ledger's due index (decision 0031) exists only in a stage whose catalog has a per-entity job
     * (the stack adds it then), so only such a catalog's watchdog queries it.
     */
    private static DueIndex dueIndex(Clients clients, StageResources resources, JobCatalog catalog) {
        return catalog.jobs().stream().anyMatch(JobDefinition::isPerEntity)
                ? new DynamoDbDueIndex(clients.dynamo(), resources.ledgerTable())
                : DueIndex.NONE;
    }

    /**
     * A stage that enables external delivery, running a job that sends, of a catalog that declares no
     * port: the job fails (and says why) rather than pretend the message left.
     */
    private static DeliveryReceipt noDeliveryPort(DeliveryMessage message) {
        throw new PunctualException("external delivery: the job catalog declares no delivery port"
                + " (JobCatalog.withDelivery), so the " + message.channel() + " message was not sent");
    }

    public static StructuredLog log(Consumer<String> sink, Clock clock) {
        return new StructuredLog(sink, clock, "punctual", Redactor.standard());
    }

    private static Region region(Map<String, String> env) {
        String region = env.getOrDefault("AWS_REGION", env.get("AWS_DEFAULT_REGION"));
        if (region == null || region.isBlank()) {
            throw new StageConfigException("AWS_REGION", String.valueOf(region), "the region, e.g. eu-central-1");
        }
        return Region.of(region);
    }
}
