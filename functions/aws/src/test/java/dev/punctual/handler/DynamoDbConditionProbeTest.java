package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.job.JobTable;
import dev.punctual.job.MaintenanceCondition;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * A maintenance condition's query on the emulator (decision 0036, 5): it finds an item of its partition
 * (narrowed by prefix, or through an index), finds none once they are gone, costs one request and at most
 * one item read, and says why when it cannot be answered.
 */
class DynamoDbConditionProbeTest {

    private static final JobTable MEMBERS = JobTable.builder("Members")
            .environmentVariable("MEMBERS_TABLE")
            .partitionKey("pk", JobTable.AttributeType.STRING)
            .sortKey("sk", JobTable.AttributeType.STRING)
            .globalIndex("by-origin", "origin", JobTable.AttributeType.STRING)
            .actions("dynamodb:Query")
            .build();

    private static final String TABLE = TestTables.uniqueName(DynamoDbConditionProbeTest.class, "members");

    private static final MaintenanceCondition SYNTHETIC = MaintenanceCondition.whileItemsExist(
            "synthetic-members", MEMBERS, "SYNTHETIC", "synthetic member data is loaded");

    private final List<String> operations = new CopyOnWriteArrayList<>();
    private final List<Integer> scanned = new CopyOnWriteArrayList<>();
    private final DynamoDbClient counted = DynamoDbHarness.newClient(b ->
            b.overrideConfiguration(c -> c.addExecutionInterceptor(new ExecutionInterceptor() {
                @Override
                public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
                    operations.add(context.request().getClass().getSimpleName());
                    if (context.response() instanceof QueryResponse q) {
                        scanned.add(q.scannedCount());
                    }
                }
            })));
    private final DynamoDbConditionProbe probe =
            new DynamoDbConditionProbe(counted, Map.of("MEMBERS_TABLE", TABLE)::get);

    @BeforeAll
    static void table() {
        DeclaredTables.create(DynamoDbHarness.client(), MEMBERS, TABLE);
    }

    private static void put(String pk, String sk, String origin) {
        DynamoDbHarness.client()
                .putItem(b -> b.tableName(TABLE)
                        .item(Map.of(
                                "pk", AttributeValue.fromS(pk),
                                "sk", AttributeValue.fromS(sk),
                                "origin", AttributeValue.fromS(origin))));
    }

    private static void delete(String pk, String sk) {
        DynamoDbHarness.client()
                .deleteItem(b ->
                        b.tableName(TABLE).key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk))));
    }

    @Test
    void findsAnItemOfItsPartition_andNoneOnceTheyAreGone_inOneRequestReadingAtMostOneItem() {
        put("SYNTHETIC", "member#1", "loader");
        put("SYNTHETIC", "member#2", "loader");
        put("SYNTHETIC", "member#3", "loader");

        boolean loaded = probe.findsAnItem(SYNTHETIC);
        List.of("member#1", "member#2", "member#3").forEach(sk -> delete("SYNTHETIC", sk));
        boolean reset = probe.findsAnItem(SYNTHETIC);

        assertThat(loaded).isTrue();
        assertThat(reset).isFalse();
        assertThat(operations).containsExactly("QueryRequest", "QueryRequest");
        assertThat(scanned)
                .as("items read per evaluation")
                .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(1));
    }

    @Test
    void aSortKeyPrefix_findsOnlyItemsItStarts() {
        put("TENANT", "invoice#1", "billing");
        MaintenanceCondition members = MaintenanceCondition.whileItemsExist(
                        "tenant-members", MEMBERS, "TENANT", "tenant members are being migrated")
                .withSortKeyPrefix("member#");

        boolean before = probe.findsAnItem(members);
        put("TENANT", "member#9", "billing");

        assertThat(before).isFalse();
        assertThat(probe.findsAnItem(members)).isTrue();
    }

    @Test
    void throughAnIndex_findsItemsByTheIndexsPartition() {
        MaintenanceCondition byOrigin = MaintenanceCondition.whileItemsExist(
                        "seeded-by-tool", MEMBERS, "seed-tool", "the seed tool's data is loaded")
                .onIndex("by-origin");

        boolean before = probe.findsAnItem(byOrigin);
        put("REAL", "member#5", "seed-tool");

        assertThat(before).isFalse();
        assertThat(probe.findsAnItem(byOrigin)).isTrue();
    }

    @Test
    void aTableThatIsNotThere_orAVariableThatIsNotSet_isAFaultNamingIt() {
        DynamoDbConditionProbe missingTable =
                new DynamoDbConditionProbe(counted, Map.of("MEMBERS_TABLE", TABLE + "-gone")::get);
        DynamoDbConditionProbe noVariable = new DynamoDbConditionProbe(counted, Map.<String, String>of()::get);

        assertThatThrownBy(() -> missingTable.findsAnItem(SYNTHETIC))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("ResourceNotFoundException")
                .hasMessageContaining(TABLE + "-gone");
        assertThatThrownBy(() -> noVariable.findsAnItem(SYNTHETIC))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("MEMBERS_TABLE is not set");
    }
}
