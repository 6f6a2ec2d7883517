package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobServices;
import dev.punctual.job.LongJob;
import dev.punctual.job.LongRun;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.longrun.testkit.InMemoryExecutions;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.LedgerHistory;
import dev.punctual.runtime.LocalExecutionDriver;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.RuntimeServices;
import dev.punctual.stage.StageFlags;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A long job's deliveries and steps (decision 0039), as its pool's function sends them to DynamoDB, are
 * allowed by that pool's synthesised role: the claim, the execution note and the chunk records (each a
 * transaction with a ConditionCheck on the lease's item), the finish's Query of the chunk partition and
 * the completion; for a per-entity long job, under the entity's own items. Before the ConditionCheck
 * grant, every note and chunk record of a deployed stage would have been denied.
 */
class LongRunLedgerGrantsTest {

    private static final Instant TWO = Instant.parse("2026-11-30T02:00:00Z");
    private static final FunctionPool BATCH = new FunctionPool("batch", 512, Duration.ofMinutes(5));

    /** Three chunks, one of which fails once (a failed attempt is a record too). */
    static final class Close implements LongJob {
        private final java.util.Set<String> failedOnce = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public List<String> plan(JobContext context) {
            return List.of("acme", "globex", "initech");
        }

        @Override
        public JobResult chunk(JobContext context, String key) {
            if (key.equals("globex") && failedOnce.add(key)) {
                throw new IllegalStateException("first attempt fails");
            }
            return JobResult.empty();
        }
    }

    /** One job for every step: the factory is called per step, and the failure happens once in all. */
    private static final Close CLOSE = new Close();

    private static final JobCatalog CATALOG = new JobCatalog(List.of(
                    JobDefinition.builder("close-books")
                            .schedule("0 2 * * *", "UTC")
                            .pool(BATCH)
                            .runsLong(LongRun.within(Duration.ofHours(6)))
                            .job(services -> CLOSE)
                            .build(),
                    JobDefinition.builder("tenant-export")
                            .schedule("0 2 * * *", "UTC")
                            .pool(BATCH)
                            .perEntity(EntityJob.parameters())
                            .runsLong(LongRun.within(Duration.ofHours(1)))
                            .job(services -> CLOSE)
                            .build()))
            .plus(List.of(MissedRunWatchdog.definition()));

    private final MutableClock clock = new MutableClock(TWO.plusSeconds(2));

    @Test
    void aLongOccurrencesClaimNotesChunksAndCompletion_areAllowedByItsPoolsRole() {
        StageStack stage = Synth.stage(Stages.named("dev"), CATALOG);
        Template template = Template.fromStack(stage);
        String table = TestTables.uniqueName(getClass(), "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        LedgerRequests requests = new LedgerRequests();
        try (DynamoDbClient client = DynamoDbHarness.newClient(
                builder -> builder.overrideConfiguration(c -> c.addExecutionInterceptor(requests)))) {
            RunLedger ledger = DynamoDbRunLedger.create(
                    client, table, clock, () -> UUID.randomUUID().toString(), Retention.DEFAULT, clock::advance);
            AtomicReference<PunctualRuntime> built = new AtomicReference<>();
            StructuredLog log = new StructuredLog(line -> {}, clock, "punctual", Redactor.standard());
            PunctualRuntime runtime = new PunctualRuntime(new RuntimeServices(
                    CATALOG,
                    ledger,
                    StageFlags.defaultsFor("dev"),
                    event -> {},
                    clock,
                    clock::advance,
                    new JobServices(clock, CATALOG, new LedgerHistory(ledger)),
                    message -> new DeliveryReceipt.Sent(message.channel(), message.recipient()),
                    dev.punctual.runtime.ConditionProbe.UNAVAILABLE,
                    new LocalExecutionDriver(new InMemoryExecutions(clock), built::get, log, clock)));
            built.set(runtime);

            String job = deliver(runtime, "\"job\":\"close-books\"");
            String entity = deliver(runtime, "\"job\":\"tenant-export\",\"entity\":\"acme\",\"zone\":\"UTC\"");

            assertThat(List.of(job, entity)).containsExactly("PASS STARTED", "PASS STARTED");
            assertThat(ledger.run(new dev.punctual.ledger.RunKey("close-books", TWO)))
                    .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(dev.punctual.ledger.RunStatus.SUCCEEDED));
        }
        LedgerPolicy role = LedgerPolicy.ofRole(
                template,
                Templates.logicalId(stage.pools().get(BATCH.name()).function().getRole()),
                Templates.logicalId(stage.tables().ledger()));

        assertThat(requests.unexpected()).isEmpty();
        assertThat(requests.accesses())
                .extracting(a -> a.action() + " " + a.partitionKey().replaceAll("#20.*", "#<occurrence>"))
                .contains(
                        "dynamodb:ConditionCheckItem lock#close-books",
                        "dynamodb:PutItem long#close-books",
                        "dynamodb:PutItem chunk#close-books#<occurrence>",
                        "dynamodb:Query chunk#close-books#<occurrence>",
                        "dynamodb:ConditionCheckItem lock#tenant-export:acme",
                        "dynamodb:PutItem long#tenant-export:acme",
                        "dynamodb:Query chunk#tenant-export:acme#<occurrence>");
        assertThat(requests.accesses())
                .as("the batch pool's requests its role denies")
                .filteredOn(access -> !role.allows(access))
                .isEmpty();
        // Still confined: another job's records and a ConditionCheck on another group's item are not its own.
        assertThat(List.of(
                        new LedgerRequests.Access(
                                "dynamodb:PutItem", "long#other", "x", java.util.Set.of("pk", "sk"), null),
                        new LedgerRequests.Access(
                                "dynamodb:ConditionCheckItem",
                                "lock#other",
                                "lock",
                                java.util.Set.of("pk", "sk"),
                                null),
                        new LedgerRequests.Access(
                                "dynamodb:Query", "chunk#other#x", null, java.util.Set.of("pk"), null)))
                .allSatisfy(forged ->
                        assertThat(role.allows(forged)).as(forged.toString()).isFalse());
    }

    @Test
    void theWatchdogsSweep_ofALongJobInAnotherPool_isAllowedByTheWatchdogsPoolsRole() {
        StageStack stage = Synth.stage(Stages.named("dev"), CATALOG);
        Template template = Template.fromStack(stage);
        String table = TestTables.uniqueName(getClass(), "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        LedgerRequests requests = new LedgerRequests();
        InMemoryExecutions engine = new InMemoryExecutions(clock);
        try (DynamoDbClient client = DynamoDbHarness.newClient(
                builder -> builder.overrideConfiguration(c -> c.addExecutionInterceptor(requests)))) {
            RunLedger ledger = DynamoDbRunLedger.create(
                    client, table, clock, () -> UUID.randomUUID().toString(), Retention.DEFAULT, clock::advance);
            PunctualRuntime runtime = new PunctualRuntime(new RuntimeServices(
                    CATALOG,
                    ledger,
                    StageFlags.defaultsFor("dev"),
                    event -> {},
                    clock,
                    clock::advance,
                    new JobServices(clock, CATALOG, new LedgerHistory(ledger)),
                    message -> new DeliveryReceipt.Sent(message.channel(), message.recipient()),
                    dev.punctual.runtime.ConditionProbe.UNAVAILABLE,
                    engine));
            assertThat(deliver(runtime, "\"job\":\"close-books\"")).isEqualTo("PASS STARTED");
            String name = engine.executions().get(0).name();
            engine.close(
                    "close-books", name, dev.punctual.longrun.LongExecutions.Status.TIMED_OUT, "States.Timeout", null);
            clock.advance(Duration.ofMinutes(7)); // past the watchdog's 02:07
            requests.clear();

            Instant seven = TWO.plus(Duration.ofMinutes(7));
            String payload = "{\"kind\":\"scheduled\",\"job\":\"" + MissedRunWatchdog.ID + "\",\"scheduled_time\":\""
                    + seven + "\",\"execution_id\":\"" + UUID.randomUUID() + "\",\"attempt_number\":\"1\"}";
            runtime.handle(
                    payload,
                    Deadline.fromRemaining(clock.peek(), Duration.ofMinutes(5)),
                    new StructuredLog(line -> {}, clock, "punctual", Redactor.standard()));

            assertThat(ledger.run(new dev.punctual.ledger.RunKey("close-books", TWO)))
                    .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(dev.punctual.ledger.RunStatus.FAILED));
        }
        LedgerPolicy role = LedgerPolicy.ofRole(
                template,
                Templates.logicalId(stage.pools()
                        .get(FunctionPool.DEFAULT.name())
                        .function()
                        .getRole()),
                Templates.logicalId(stage.tables().ledger()));

        assertThat(requests.unexpected()).isEmpty();
        assertThat(requests.accesses())
                .extracting(a -> a.action() + " " + a.partitionKey())
                .contains("dynamodb:GetItem long#close-books", "dynamodb:PutItem run#close-books");
        assertThat(requests.accesses())
                .as("the watchdog pool's requests its role denies")
                .filteredOn(access -> !role.allows(access))
                .isEmpty();
    }

    private String deliver(PunctualRuntime runtime, String subject) {
        String payload = "{\"kind\":\"scheduled\"," + subject + ",\"scheduled_time\":\"" + TWO
                + "\",\"execution_id\":\"" + UUID.randomUUID() + "\",\"attempt_number\":\"1\"}";
        StructuredLog log = new StructuredLog(line -> {}, clock, "punctual", Redactor.standard())
                .forInvocation("test-" + UUID.randomUUID(), false);
        InvocationResult result =
                runtime.handle(payload, Deadline.fromRemaining(clock.peek(), Duration.ofMinutes(5)), log);
        assertThat(result.valid()).as(payload + ": " + result.error()).isTrue();
        return result.occurrences().stream()
                .map(o -> o.verdict().name() + " " + o.reason().wire())
                .collect(Collectors.joining(", "));
    }
}
