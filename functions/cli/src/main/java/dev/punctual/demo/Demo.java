package dev.punctual.demo;

import dev.punctual.handler.DeclaredTables;
import dev.punctual.handler.Wiring;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobTable;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.local.MotoServer;
import dev.punctual.longrun.stepfunctions.EmulatorStateMachines;
import dev.punctual.longrun.stepfunctions.StepFunctionsExecutions;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The local demo: starts the emulator (unless given one), creates fresh tables, seeds the demo domain,
 * and drives the real runtime through {@link DemoScenario} with a simulated clock. Stops what it
 * started.
 */
public final class Demo {

    private static final Region REGION = Region.US_EAST_1;

    /** The emulator takes any key; these name the demo in its request logs. */
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-demo", "punctual-demo"));

    private final String endpoint;
    private final Path logFile;
    private final PrintWriter out;
    private final PrintWriter err;

    /** A demo whose log goes to a fresh file in the temporary directory. */
    public Demo(String endpoint, PrintWriter out, PrintWriter err) {
        this(endpoint, null, out, err);
    }

    /** @param logFile where the structured log lines go; null for a fresh file in the temporary directory */
    public Demo(String endpoint, Path logFile, PrintWriter out, PrintWriter err) {
        this.endpoint = endpoint;
        this.logFile = logFile;
        this.out = out;
        this.err = err;
    }

    public void run() {
        MotoServer moto = null;
        String url = endpoint != null ? endpoint : System.getenv(Wiring.ENDPOINT);
        if (url == null || url.isBlank()) {
            err.println("[punctual] starting the local DynamoDB emulator (moto) ...");
            err.flush();
            moto = MotoServer.start();
            url = moto.endpoint().toString();
        }
        try {
            runAgainst(url, moto == null ? "given endpoint " + url : moto.detail() + " at " + url);
        } finally {
            if (moto != null) {
                moto.stop();
                err.println("[punctual] emulator stopped");
            }
        }
    }

    private void runAgainst(String url, String backend) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        StageFlags flags = StageFlags.defaultsFor("dev");
        Map<String, String> env = new HashMap<>(flags.toEnvironment());
        env.putAll(new StageResources("punctual-demo-ledger-" + suffix, "punctual-demo-" + suffix, "demo")
                .toEnvironment());
        // The examples declare the table their jobs work on; the demo creates it as the CDK app would.
        JobTable declared = ExampleDomain.declaredTable();
        String domainTable = "punctual-demo-domain-" + suffix;
        env.put(declared.environmentVariable(), domainTable);
        env.put("AWS_REGION", REGION.id());
        env.put(Wiring.ENDPOINT, url);
        // Long jobs' executions on moto's Step Functions, in state machines of this run's own stage name, so
        // a shared emulator never holds two demo runs' executions in one. No local driver: the demo shows a
        // duplicate while the execution runs, then sends its steps itself (MonthEndAct).
        String machines = "demo-" + suffix;
        env.put(StepFunctionsExecutions.PREFIX_ENV, EmulatorStateMachines.prefix(REGION, machines));
        Wiring.Clients clients = Wiring.clients(env, CREDENTIALS);
        StageResources resources = StageResources.fromEnvironment(env);
        LedgerTable.create(clients.dynamo(), resources.ledgerTable());
        DeclaredTables.create(clients.dynamo(), declared, domainTable);
        createEventBus(clients, resources.eventBus(), url);
        DemoData.seed(clients.dynamo(), domainTable, DemoScenario.START);
        SimulatedClock clock = new SimulatedClock(DemoScenario.START);
        DemoLog lines = new DemoLog(
                logFile != null
                        ? logFile
                        : Path.of(System.getProperty("java.io.tmpdir"), "punctual-demo-" + suffix + ".jsonl"));
        JobCatalog catalog = DemoJobs.addTo(Wiring.catalog(env, clock));
        EmulatorStateMachines.createIfMissing(URI.create(url), REGION, machines, catalog);
        PunctualRuntime runtime = Wiring.runtime(env, clients, catalog, clock, lines);
        out.printf("Punctual demo: stage dev (external delivery suppressed, destructive jobs refused), %s%n", backend);
        out.printf(
                "Tables %s and %s, event bus %s; the clock is simulated, nothing waits.%n%n",
                resources.ledgerTable(), domainTable, resources.eventBus());
        StructuredLog log = Wiring.log(lines, clock);
        try (lines;
                SfnClient sfn = SfnClient.builder()
                        .endpointOverride(URI.create(url))
                        .region(REGION)
                        .credentialsProvider(CREDENTIALS)
                        .httpClient(UrlConnectionHttpClient.create())
                        .build()) {
            MonthEndAct monthEnd = new MonthEndAct(
                    runtime,
                    clock,
                    log,
                    out,
                    sfn,
                    EmulatorStateMachines.prefix(REGION, machines) + MonthEndAct.JOB,
                    clients.dynamo(),
                    domainTable);
            new DemoRun(runtime, clock, log, lines, out, new SyntheticMembers(clients.dynamo(), domainTable), monthEnd)
                    .run();
        }
        out.printf(
                "%n%d structured JSON log lines written to %s (one JSON object per line, as CloudWatch would"
                        + " receive them).%n",
                lines.count(), lines.file());
        out.flush();
        clients.dynamo().close();
        clients.events().close();
    }

    /**
     * The stage's bus, as the CDK app creates it, so lifecycle events (the watchdog's reports among them)
     * are published as on AWS rather than each failing with a WARN line. An endpoint without EventBridge
     * (DynamoDB Local) still runs the demo; the log then says, per event, that it was not published.
     */
    private void createEventBus(Wiring.Clients clients, String bus, String url) {
        try {
            clients.events().createEventBus(b -> b.name(bus));
        } catch (SdkException e) {
            err.printf("[punctual] no event bus at %s (%s): lifecycle events will not be published%n", url, e);
            err.flush();
        }
    }
}
