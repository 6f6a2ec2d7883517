package dev.punctual.handler;

import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobTable;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.runtime.Catalogs;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * A stage on the emulator: a fresh ledger and a fresh table for each table the catalog on the class
 * path declares (the fixtures' in this module, the examples' in theirs), the real wiring, a clock tests
 * move.
 */
final class EmulatorStage {

    final MutableClock clock;
    final Map<String, String> env = new HashMap<>();
    final Wiring.Clients clients;
    final PunctualRuntime runtime;
    final List<String> lines = new CopyOnWriteArrayList<>();
    final String ledgerTable;

    /** Each declared table's name on the emulator, by declared name. */
    final Map<String, String> tables = new LinkedHashMap<>();

    EmulatorStage(Class<?> testClass, StageFlags flags, Instant now) {
        this(testClass, flags, now, null);
    }

    /** @param interceptor sees every DynamoDB request of the runtime (null: none) */
    EmulatorStage(Class<?> testClass, StageFlags flags, Instant now, ExecutionInterceptor interceptor) {
        this.clock = new MutableClock(now);
        this.ledgerTable = TestTables.uniqueName(testClass, "ledger");
        env.putAll(flags.toEnvironment());
        env.putAll(new StageResources(ledgerTable, "default", "default").toEnvironment());
        List<JobTable> declared =
                Catalogs.load(JobEnvironment.definitionsOnly(flags)).tables();
        for (JobTable table : declared) {
            String name = TestTables.uniqueName(testClass, table.name());
            tables.put(table.name(), name);
            env.put(table.environmentVariable(), name);
        }
        env.put("AWS_REGION", DynamoDbHarness.REGION.id());
        env.put(Wiring.ENDPOINT, DynamoDbHarness.backend().endpoint().toString());
        Wiring.Clients plain = Wiring.clients(
                env, StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")));
        this.clients = interceptor == null
                ? plain
                : new Wiring.Clients(
                        DynamoDbHarness.newClient(
                                b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(interceptor))),
                        plain.events());
        LedgerTable.create(clients.dynamo(), ledgerTable);
        declared.forEach(table -> DeclaredTables.create(clients.dynamo(), table, tables.get(table.name())));
        this.runtime = Wiring.runtime(env, clients, Wiring.catalog(env, clock), clock, lines::add);
    }

    /** The name on the emulator of a table the catalog declares; fails when it declares no such table. */
    String table(JobTable declared) {
        String name = tables.get(declared.name());
        if (name == null) {
            throw new IllegalArgumentException(
                    "the catalog declares no table " + declared.name() + "; it declares " + tables.keySet());
        }
        return name;
    }
}
