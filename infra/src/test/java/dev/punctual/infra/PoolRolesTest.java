package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.job.JobDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The ledger statements of each pool's role in the dev stage of the fixture catalog: pool {@code default}
 * (the daily job, the quarter-hourly and hourly jobs in the shared group, the delivering job, the
 * watchdog) and pool {@code maintenance} (the destructive job). LedgerGrantsTest checks them against
 * the requests the ledger adapter really sends.
 */
class PoolRolesTest {

    private static final String SK = "2026-11-30T14:00:00.000Z";

    private static final List<String> DEFAULT_JOBS = List.of(
            FixtureCatalog.DAILY,
            FixtureCatalog.QUARTER_HOURLY,
            FixtureCatalog.HOURLY,
            FixtureCatalog.DELIVERING,
            FixtureCatalog.FORTNIGHTLY,
            "missed-run-watchdog");

    private static final String POOL = FixtureCatalog.POOL;
    private static final String DESTRUCTIVE = FixtureCatalog.DESTRUCTIVE;
    private static final String GROUP = "lock#" + FixtureCatalog.SHARED_GROUP;

    private static Map<String, LedgerPolicy> roles;

    @BeforeAll
    static void synth() {
        StageStack stage = Synth.stage("dev");
        Template template = Template.fromStack(stage);
        String ledger = Templates.logicalId(stage.tables().ledger());
        roles = new LinkedHashMap<>();
        for (String pool : stage.pools().keySet()) {
            String role = Templates.logicalId(stage.pools().get(pool).function().getRole());
            roles.put(pool, LedgerPolicy.ofRole(template, role, ledger));
        }
    }

    @Test
    void eachPool_putsOnlyItsOwnJobsRunItems() {
        assertThat(roles.get("default").leadingKeysOf("dynamodb:PutItem"))
                .containsExactly(DEFAULT_JOBS.stream().map(id -> "run#" + id).toList());
        assertThat(roles.get(POOL).leadingKeysOf("dynamodb:PutItem")).containsExactly(List.of("run#" + DESTRUCTIVE));
    }

    @Test
    void eachPool_updatesOnlyItsOwnJobsLockItems_andTheLeaseOfTheGroupsItsJobsShare() {
        assertThat(roles.get("default").leadingKeysOf("dynamodb:UpdateItem"))
                .containsExactlyInAnyOrder(
                        DEFAULT_JOBS.stream().map(id -> "lock#" + id).toList(), List.of(GROUP));
        assertThat(roles.get(POOL).leadingKeysOf("dynamodb:UpdateItem"))
                .containsExactly(List.of("lock#" + DESTRUCTIVE));
    }

    @Test
    void aPoolsWrites_matchNoItemOfAnotherPoolsJob() {
        for (Map.Entry<String, LedgerPolicy> role : roles.entrySet()) {
            for (JobDefinition other : Synth.CATALOG.jobs()) {
                if (other.pool().name().equals(role.getKey())) {
                    continue;
                }
                // What the red team sent: the other job's run item as SUCCEEDED, and its cursor moved.
                LedgerRequests.Access runItem = new LedgerRequests.Access(
                        "dynamodb:PutItem", "run#" + other.id(), SK, Set.of("pk", "sk", "status", "job"), "NONE");
                LedgerRequests.Access cursor = new LedgerRequests.Access(
                        "dynamodb:UpdateItem", "lock#" + other.id(), "lock", Set.of("pk", "sk", "cursor"), "NONE");

                assertThat(role.getValue().allows(runItem))
                        .as("pool %s puts %s", role.getKey(), runItem.partitionKey())
                        .isFalse();
                assertThat(role.getValue().allows(cursor))
                        .as("pool %s moves the cursor of %s", role.getKey(), other.id())
                        .isFalse();
            }
        }
    }

    @Test
    void aSharedGroupsItem_takesTheLeaseAttributes_butNoJobsCursorOrSlot() {
        LedgerPolicy defaultPool = roles.get("default");

        assertThat(defaultPool.allows(new LedgerRequests.Access(
                        "dynamodb:UpdateItem",
                        GROUP,
                        "lock",
                        Set.of(
                                "pk",
                                "sk",
                                "leaseOwner",
                                "leaseFence",
                                "leaseUntil",
                                "leaseAcquiredAt",
                                "leaseHolder",
                                "leaseKind",
                                "maintReason",
                                "maintBy",
                                "maintCommand"),
                        "ALL_NEW")))
                .isTrue();
        for (String jobPart : List.of("cursor", "occ", "occStatus", "occOwner", "occFence")) {
            assertThat(defaultPool.allows(new LedgerRequests.Access(
                            "dynamodb:UpdateItem", GROUP, "lock", Set.of("pk", "sk", jobPart), "NONE")))
                    .as(jobPart)
                    .isFalse();
        }
    }

    @Test
    void noPoolRole_deletesQueriesScansOrConditionChecksLedgerItems() {
        assertThat(roles.values())
                .allSatisfy(role -> assertThat(role.actions())
                        .containsExactlyInAnyOrder("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"));
    }

    @Test
    void theWatchdogsPool_readsEveryJobsItems_theOtherPoolOnlyItsOwn() {
        LedgerPolicy defaultPool = roles.get("default");
        LedgerPolicy maintenance = roles.get(POOL);

        assertThat(defaultPool.allows(get("run#" + DESTRUCTIVE))).isTrue();
        assertThat(defaultPool.allows(get("lock#" + DESTRUCTIVE))).isTrue();
        assertThat(maintenance.allows(get("run#" + DESTRUCTIVE))).isTrue();
        assertThat(maintenance.allows(get("lock#" + DESTRUCTIVE))).isTrue();
        for (String id : DEFAULT_JOBS) {
            assertThat(maintenance.allows(get("run#" + id))).as(id).isFalse();
            assertThat(maintenance.allows(get("lock#" + id))).as(id).isFalse();
        }
        assertThat(maintenance.allows(get(GROUP))).isFalse();
    }

    private static LedgerRequests.Access get(String partitionKey) {
        return new LedgerRequests.Access("dynamodb:GetItem", partitionKey, SK, Set.of("pk", "sk"), "NONE");
    }
}
