package dev.punctual.demo;

import dev.punctual.examples.DemoTable;
import dev.punctual.examples.ExampleCatalog;
import dev.punctual.handler.DeclaredTables;
import dev.punctual.handler.Wiring;
import dev.punctual.job.JobTable;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.local.MotoServer;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The local demo: starts the emulator (unless given one), creates fresh tables, seeds the demo domain,
 * and drives the real runtime through {@link DemoScenario} with a simulated clock. Stops what it
 * started.
 */
public final class Demo {

    private final String endpoint;
    private final PrintWriter out;
    private final PrintWriter err;

    public Demo(String endpoint, PrintWriter out, PrintWriter err) {
        this.endpoint = endpoint;
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
        env.putAll(new StageResources("punctual-demo-ledger-" + suffix, "punctual-demo", "demo").toEnvironment());
        // The examples declare the table their jobs work on; the demo creates it as the CDK app would.
        JobTable declared = ExampleCatalog.DEMO_TABLE;
        String domainTable = "punctual-demo-domain-" + suffix;
        env.put(declared.environmentVariable(), domainTable);
        env.put("AWS_REGION", "us-east-1");
        env.put(Wiring.ENDPOINT, url);
        Wiring.Clients clients = Wiring.clients(
                env, StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-demo", "punctual-demo")));
        StageResources resources = StageResources.fromEnvironment(env);
        LedgerTable.create(clients.dynamo(), resources.ledgerTable());
        DeclaredTables.create(clients.dynamo(), declared, domainTable);
        DemoData.seed(new DemoTable(clients.dynamo(), domainTable), DemoScenario.START);
        SimulatedClock clock = new SimulatedClock(DemoScenario.START);
        AtomicInteger lines = new AtomicInteger();
        PunctualRuntime runtime =
                Wiring.runtime(env, clients, Wiring.catalog(env, clock), clock, line -> lines.incrementAndGet());
        out.printf("Punctual demo: stage dev (external delivery suppressed, destructive jobs refused), %s%n", backend);
        out.printf(
                "Tables %s and %s; the clock is simulated, nothing waits.%n%n", resources.ledgerTable(), domainTable);
        StructuredLog log = Wiring.log(line -> lines.incrementAndGet(), clock);
        new DemoRun(runtime, clock, log, out).run();
        out.printf("%n%d structured JSON log lines written (as CloudWatch would receive them).%n", lines.get());
        out.flush();
        clients.dynamo().close();
        clients.events().close();
    }
}
