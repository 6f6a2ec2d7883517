package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A team's service deleting and putting entities (decision 0029, 8): the ledger adapter's own requests
 * for the tombstone, recorded on the emulator ({@link LedgerRequests}), are each allowed by the services'
 * managed policy as synthesised ({@link LedgerPolicy}), and the same requests on another job's item,
 * or a lease write on an entity's item, are not.
 */
class EntityTombstoneGrantsTest {

    private static final JobCatalog CATALOG = JobCatalog.of(
            JobDefinition.builder("tenant-report")
                    .schedule("0 9 * * *", "UTC")
                    .perEntity(EntityJob.parameters())
                    .job(services -> context -> JobResult.empty())
                    .build(),
            JobDefinition.builder("nightly")
                    .schedule("0 2 * * *", "UTC")
                    .job(services -> context -> JobResult.empty())
                    .build());

    private static final LedgerRequests REQUESTS = new LedgerRequests();

    private static LedgerPolicy policy;
    private static DynamoDbClient client;
    private static RunLedger ledger;

    @BeforeAll
    static void synthAndRecord() {
        StageStack stage = Synth.stage(Stages.named("dev"), CATALOG);
        Template template = Template.fromStack(stage);
        String servicePolicy =
                Templates.logicalId(stage.entityScheduling().orElseThrow().servicePolicy());
        policy = LedgerPolicy.ofManagedPolicy(
                template, servicePolicy, Templates.logicalId(stage.tables().ledger()));
        String table = TestTables.uniqueName(EntityTombstoneGrantsTest.class, "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        client = DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(REQUESTS)));
        MutableClock clock = new MutableClock(Instant.parse("2026-11-30T09:00:00Z"));
        ledger = DynamoDbRunLedger.create(
                client, table, clock, () -> UUID.randomUUID().toString(), Retention.DEFAULT, clock::advance);
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @Test
    void aDeletesTombstone_aSecondDelete_aPutsClearing_andTheirWriteLock_areAllowedByTheServicePolicy() {
        ledger.tombstoneEntity("tenant-report:acme", "billing-service");
        ledger.tombstoneEntity("tenant-report:acme", "billing-service");
        ledger.clearEntityTombstone("tenant-report:acme");
        ledger.clearEntityTombstone("tenant-report:acme");
        // A put's note for the due watch: an occurrence ahead, then none (an at() already past).
        ledger.noteEntityDue("tenant-report:acme", now -> java.util.Optional.of(now.plusSeconds(3_600)));
        ledger.noteEntityDue("tenant-report:acme", now -> java.util.Optional.empty());
        // The entity's write lock a put and a delete hold around their writes (issue 40).
        java.time.Duration term = java.time.Duration.ofMinutes(2);
        ledger.takeEntityWrite("tenant-report:acme", "put-1", term);
        ledger.renewEntityWrite("tenant-report:acme", "put-1", term);
        ledger.releaseEntityWrite("tenant-report:acme", "put-1");

        assertThat(REQUESTS.accesses()).hasSize(9).allSatisfy(a -> {
            assertThat(a.action()).isEqualTo("dynamodb:UpdateItem");
            assertThat(a.partitionKey()).isEqualTo("lock#tenant-report:acme");
        });
        assertThat(REQUESTS.accesses().stream().filter(a -> !policy.allows(a))).isEmpty();
        assertThat(policy.actions()).containsExactly("dynamodb:UpdateItem");
    }

    @Test
    void theSameWrite_onAJobsOwnItem_orAnotherJobsEntity_orALeaseAttribute_isDenied() {
        LedgerRequests.Access tombstone = new LedgerRequests.Access(
                "dynamodb:UpdateItem",
                "lock#tenant-report:acme",
                "lock",
                Set.of("pk", "sk", "deletedAt", "deletedBy"),
                "ALL_NEW");

        assertThat(policy.allows(tombstone)).isTrue();
        assertThat(policy.allows(with(tombstone, "lock#tenant-report")))
                .as("the job's own item")
                .isFalse();
        assertThat(policy.allows(with(tombstone, "lock#nightly:acme")))
                .as("not a per-entity job")
                .isFalse();
        assertThat(policy.allows(with(tombstone, "run#tenant-report:acme")))
                .as("a run item")
                .isFalse();
        assertThat(policy.allows(new LedgerRequests.Access(
                        "dynamodb:UpdateItem",
                        "lock#tenant-report:acme",
                        "lock",
                        Set.of("pk", "sk", "leaseOwner", "leaseUntil"),
                        "ALL_NEW")))
                .as("a lease write")
                .isFalse();
        assertThat(policy.leadingKeysOf("dynamodb:UpdateItem")).isEqualTo(List.of(List.of("lock#tenant-report:*")));
    }

    private static LedgerRequests.Access with(LedgerRequests.Access access, String partitionKey) {
        return new LedgerRequests.Access(
                access.action(), partitionKey, access.sortKey(), access.attributes(), access.returnValues());
    }
}
