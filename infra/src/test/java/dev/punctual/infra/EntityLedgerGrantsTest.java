package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobServices;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.LedgerHistory;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A per-entity job's deliveries, as its pool's function sends them to DynamoDB, are allowed by that
 * pool's synthesised role: the entity's own items ({@code run#<job>:<entity>}, {@code lock#<job>:<entity>})
 * as well as the job's group item. Before, the role named the job's items exactly, so every entity claim
 * and completion of a deployed stage was denied (found while building issue 40's item 1).
 */
class EntityLedgerGrantsTest {

    private static final Instant NINE = Instant.parse("2026-11-30T09:00:00Z");
    private static final FunctionPool BATCH = new FunctionPool("batch", 512, Duration.ofMinutes(5));

    private static final JobCatalog CATALOG = new JobCatalog(List.of(
                    JobDefinition.builder("tenant-report")
                            .schedule("0 9 * * *", "UTC")
                            .pool(BATCH)
                            .perEntity(EntityJob.parameters())
                            .job(services -> context -> JobResult.empty())
                            .build(),
                    JobDefinition.builder("nightly")
                            .schedule("0 2 * * *", "UTC")
                            .pool(BATCH)
                            .job(services -> context -> JobResult.empty())
                            .build()))
            .plus(List.of(MissedRunWatchdog.definition()));

    private final MutableClock clock = new MutableClock(NINE.plusSeconds(2));

    @Test
    void anEntitysDeliveries_areAllowedByItsPoolsRole_itemByItem() {
        StageStack stage = Synth.stage(Stages.named("dev"), CATALOG);
        Template template = Template.fromStack(stage);
        String table = TestTables.uniqueName(getClass(), "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        LedgerRequests requests = new LedgerRequests();
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
                    message -> new DeliveryReceipt.Sent(message.channel(), message.recipient())));

            String first = deliver(runtime, "acme");
            String again = deliver(runtime, "acme");
            String other = deliver(runtime, "globex");

            assertThat(List.of(first, again, other)).containsExactly("PASS OK", "SKIP ALREADY_DONE", "PASS OK");
        }
        LedgerPolicy role = LedgerPolicy.ofRole(
                template,
                Templates.logicalId(stage.pools().get(BATCH.name()).function().getRole()),
                Templates.logicalId(stage.tables().ledger()));

        assertThat(requests.unexpected()).isEmpty();
        assertThat(requests.accesses())
                .extracting(LedgerRequests.Access::partitionKey)
                .contains("run#tenant-report:acme", "lock#tenant-report:acme", "run#tenant-report:globex");
        assertThat(requests.accesses())
                .as("the batch pool's requests its role denies")
                .filteredOn(access -> !role.allows(access))
                .isEmpty();
        // Still confined: another job's entity items and an item that only starts like the job's are not its own.
        assertThat(List.of(
                        new LedgerRequests.Access(
                                "dynamodb:PutItem", "run#tenant-reports:acme", "x", java.util.Set.of("pk", "sk"), null),
                        new LedgerRequests.Access(
                                "dynamodb:UpdateItem", "lock#other:acme", "lock", java.util.Set.of("pk", "sk"), null)))
                .allSatisfy(forged ->
                        assertThat(role.allows(forged)).as(forged.toString()).isFalse());
    }

    /**
     * A one-time {@code at()} entity's completion also puts its completed note (decision 0047) in the
     * completion's transaction: the pool's role allows that Put on the job's {@code done#<job>#<NN>}
     * partitions, and on no other job's.
     */
    @Test
    void anAtEntitysCompletion_putsItsCompletedNote_allowedByItsPoolsRole_onItsJobsNotesOnly() {
        StageStack stage = Synth.stage(Stages.named("dev"), CATALOG);
        Template template = Template.fromStack(stage);
        String table = TestTables.uniqueName(getClass(), "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        LedgerRequests requests = new LedgerRequests();
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
                    message -> new DeliveryReceipt.Sent(message.channel(), message.recipient())));

            assertThat(deliver(runtime, "trial-end", ",\"schedule\":\"at(2026-11-30T09:00:00)\""))
                    .isEqualTo("PASS OK");
        }
        LedgerPolicy role = LedgerPolicy.ofRole(
                template,
                Templates.logicalId(stage.pools().get(BATCH.name()).function().getRole()),
                Templates.logicalId(stage.tables().ledger()));

        assertThat(requests.unexpected()).isEmpty();
        assertThat(requests.accesses())
                .filteredOn(access -> access.partitionKey().startsWith("done#"))
                .extracting(LedgerRequests.Access::action, LedgerRequests.Access::partitionKey)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "dynamodb:PutItem",
                        String.format(
                                "done#tenant-report#%02d",
                                dev.punctual.ledger.CompletedShards.of("tenant-report:trial-end"))));
        assertThat(requests.accesses())
                .as("the batch pool's requests its role denies")
                .filteredOn(access -> !role.allows(access))
                .isEmpty();
        assertThat(List.of(
                        new LedgerRequests.Access(
                                "dynamodb:PutItem", "done#nightly#03", "x", java.util.Set.of("pk", "sk"), null),
                        new LedgerRequests.Access(
                                "dynamodb:GetItem", "done#tenant-report#03", "x", java.util.Set.of("pk", "sk"), null),
                        new LedgerRequests.Access(
                                "dynamodb:PutItem", "done#tenant-reports#03", "x", java.util.Set.of("pk", "sk"), null)))
                .allSatisfy(forged ->
                        assertThat(role.allows(forged)).as(forged.toString()).isFalse());
    }

    private String deliver(PunctualRuntime runtime, String entity) {
        return deliver(runtime, entity, "");
    }

    private String deliver(PunctualRuntime runtime, String entity, String schedule) {
        String payload = "{\"kind\":\"scheduled\",\"job\":\"tenant-report\",\"scheduled_time\":\"" + NINE
                + "\",\"execution_id\":\"" + UUID.randomUUID() + "\",\"attempt_number\":\"1\",\"entity\":\""
                + entity + "\",\"zone\":\"UTC\"" + schedule + "}";
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
