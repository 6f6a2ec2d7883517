package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.examples.ExampleCatalog;
import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.longrun.stepfunctions.EmulatorStateMachines;
import dev.punctual.longrun.stepfunctions.StepFunctionsExecutions;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Reason;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.stage.StageFlags;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The example long job on the emulator (issue 37's "done when"): twelve concurrent deliveries of one
 * month-end, each through a runtime of its own (as twelve Lambda invocations: their own clients, the real
 * wiring, moto's DynamoDB and Step Functions), start exactly one execution, and the occurrence ends
 * SUCCEEDED with every member's chunk recorded once.
 */
class MonthEndCloseOnEmulatorTest {

    /** 23:00 in Seoul on 2027-01-31, the last day of January. */
    private static final Instant JANUARY = Instant.parse("2027-01-31T14:00:00Z");

    private static final Instant NOW = JANUARY.plusSeconds(5);
    private static final List<String> MEMBERS = List.of("m-ada", "m-bo", "m-chen", "m-dara", "m-eun");
    private static final int DELIVERIES = 12;

    @Test
    void twelveConcurrentDeliveriesOfOneMonthEnd_startOneExecution_andEveryMembersChunkIsRecordedOnce()
            throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        String domain = stage.table(ExampleCatalog.DEMO_TABLE);
        for (String member : MEMBERS) {
            stage.clients
                    .dynamo()
                    .putItem(b -> b.tableName(domain)
                            .item(Map.of(
                                    "pk", AttributeValue.fromS("members"),
                                    "sk", AttributeValue.fromS(member),
                                    "lastActiveAt", AttributeValue.fromN(Long.toString(NOW.toEpochMilli())))));
        }
        // A state machine of this test's own: moto keeps every execution, as Step Functions does for 90 days.
        String machines = "t" + UUID.randomUUID().toString().substring(0, 8);
        var region = DynamoDbHarness.REGION;
        var endpoint = DynamoDbHarness.backend().endpoint();
        Map<String, String> env = new HashMap<>(stage.env);
        env.put(StepFunctionsExecutions.PREFIX_ENV, EmulatorStateMachines.prefix(region, machines));
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        var catalog = Wiring.catalog(env, clock);
        EmulatorStateMachines.createIfMissing(endpoint, region, machines, catalog);

        List<PunctualRuntime> invocations = new ArrayList<>();
        for (int i = 0; i < DELIVERIES; i++) {
            Wiring.Clients clients = Wiring.clients(
                    env,
                    StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")));
            invocations.add(
                    Wiring.runtime(env, clients, catalog, clock, dev.punctual.ledger.Sleeper.real(), line -> {}, true));
        }
        String payload = "{\"kind\":\"scheduled\",\"job\":\"month-end-close\",\"scheduled_time\":\"" + JANUARY
                + "\",\"execution_id\":\"%s\",\"attempt_number\":\"1\"}";
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(DELIVERIES);
        List<Future<InvocationResult>> results = new ArrayList<>();
        try {
            for (PunctualRuntime runtime : invocations) {
                results.add(pool.submit(() -> {
                    go.await();
                    return runtime.handle(
                            payload.formatted(UUID.randomUUID()),
                            Deadline.fromRemaining(NOW, Duration.ofMinutes(5)),
                            new StructuredLog(line -> {}, clock, "punctual", Redactor.standard()));
                }));
            }
            go.countDown();
            List<Reason> reasons = new ArrayList<>();
            for (Future<InvocationResult> result : results) {
                reasons.add(result.get().occurrences().getFirst().reason());
            }

            assertThat(reasons).filteredOn(r -> r == Reason.STARTED).hasSize(1);
            assertThat(reasons)
                    .filteredOn(r -> r != Reason.STARTED)
                    .allMatch(r -> r == Reason.IN_PROGRESS_ELSEWHERE || r == Reason.ALREADY_DONE)
                    .hasSize(DELIVERIES - 1);
        } finally {
            pool.shutdownNow();
        }
        try (SfnClient sfn = SfnClient.builder()
                .endpointOverride(endpoint)
                .region(region)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            String machine = EmulatorStateMachines.prefix(region, machines) + "month-end-close";
            assertThat(sfn.listExecutions(b -> b.stateMachineArn(machine)).executions())
                    .hasSize(1);
        }
        RunLedger ledger = DynamoDbRunLedger.create(
                stage.clients.dynamo(),
                stage.ledgerTable,
                clock,
                () -> UUID.randomUUID().toString(),
                dev.punctual.ledger.Retention.DEFAULT,
                dev.punctual.ledger.Sleeper.real());
        RunKey key = new RunKey("month-end-close", JANUARY);
        assertThat(ledger.run(key)).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(r.resultSummary()).contains("\"statements\":5").contains("\"month\":\"2027-01\"");
        });
        assertThat(ledger.longRuns().chunks(key)).extracting(ChunkRecord::chunk).containsExactlyElementsOf(MEMBERS);
        assertThat(ledger.longRuns().chunks(key)).allSatisfy(c -> {
            assertThat(c.succeeded()).isTrue();
            assertThat(c.attempts()).isEqualTo(1);
        });
        assertThat(ledger.longRuns().execution(key))
                .hasValueSatisfying(e -> assertThat(e.planned()).isEqualTo(5));
        for (String member : MEMBERS) {
            assertThat(stage.clients
                            .dynamo()
                            .getItem(b -> b.tableName(domain)
                                    .key(Map.of(
                                            "pk", AttributeValue.fromS("statements"),
                                            "sk", AttributeValue.fromS("2027-01#" + member))))
                            .item())
                    .as(member + "'s January statement")
                    .containsKey("fence");
        }
    }
}
