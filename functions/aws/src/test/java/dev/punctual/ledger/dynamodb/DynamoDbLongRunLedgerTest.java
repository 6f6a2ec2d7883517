package dev.punctual.ledger.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.ChunkOutcome;
import dev.punctual.ledger.ChunkWrite;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.LongRunLedger;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.FaultPlan;
import dev.punctual.ledger.testkit.LongRunLedgerContract;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/** The long-occurrence contract against DynamoDB on the emulator (moto, or whatever the harness chose). */
class DynamoDbLongRunLedgerTest extends LongRunLedgerContract {

    /**
     * Chunk records per Query page: small, so listing an occurrence's chunks crosses pages as a real one
     * of up to 1,000 chunks may cross DynamoDB's 1 MB pages.
     */
    private static final int CHUNK_PAGE = 3;

    private static String table;
    private static final List<DynamoDbClient> extraClients = new ArrayList<>();

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbLongRunLedgerTest.class);
    }

    @AfterAll
    static void dropTable() {
        extraClients.forEach(DynamoDbClient::close);
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    @Override
    protected LedgerStore store() {
        return new DynamoDbLedgerStore(DynamoDbHarness.client(), table, CHUNK_PAGE);
    }

    @Override
    protected LedgerStore faultyStore(FaultPlan plan) {
        DynamoDbClient faulty = LedgerTables.clientWith(new FaultInterceptor(plan));
        extraClients.add(faulty);
        return new DynamoDbLedgerStore(faulty, table, CHUNK_PAGE);
    }

    /** Racing threads share a client of their own; moto serves one request at a time, as in the race contract. */
    @Override
    protected LedgerStore concurrentStore() {
        DynamoDbClient concurrent = DynamoDbHarness.newClient(b -> {});
        extraClients.add(concurrent);
        return new DynamoDbLedgerStore(concurrent, table, CHUNK_PAGE);
    }

    /** Every request a client sent, as built. */
    private static final class Sent implements ExecutionInterceptor {
        final List<SdkRequest> requests = new CopyOnWriteArrayList<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            requests.add(context.request());
        }
    }

    @Test
    void itemsAreKeyedAsDocumented_writtenInOneTransactionWithTheLeasesCheck_andListedByConsistentPages() {
        Sent sent = new Sent();
        DynamoDbClient metered =
                DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(sent)));
        extraClients.add(metered);
        RunLedger ledger = new LedgerEngine(
                new DynamoDbLedgerStore(metered, table, CHUNK_PAGE), clock, tokens, Retention.DEFAULT, clock::advance);
        RunKey key = new RunKey(prefix + "-close:acme", START.minus(Duration.ofMinutes(30)));
        ClaimResult result =
                ledger.claim(ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                        .onEntityLease(prefix + "-close", Optional.empty()));
        Claim claim = ((ClaimResult.Claimed) result).claim();
        LongRunLedger longRuns = ledger.longRuns();
        longRuns.noteExecution(
                claim.lease(),
                new ExecutionRecord(key, "n", "arn:n", claim.fence(), START, ExecutionRecord.NOT_PLANNED, null));
        for (String chunk : List.of("g", "f", "e", "d", "c", "b", "a")) {
            assertThat(longRuns.recordChunk(claim.lease(), key, chunk, new ChunkOutcome.Succeeded(null)))
                    .isInstanceOf(ChunkWrite.Recorded.class);
        }
        sent.requests.clear();

        List<String> listed = longRuns.chunks(key).stream().map(c -> c.chunk()).toList();

        assertThat(listed).containsExactly("a", "b", "c", "d", "e", "f", "g");
        assertThat(sent.requests)
                .as("7 chunks in pages of %d", CHUNK_PAGE)
                .hasSize(3)
                .allSatisfy(r -> assertThat(((QueryRequest) r).consistentRead()).isTrue());
        String occurrence = "2026-11-29T05:30:00.000Z";
        Map<String, AttributeValue> execution = item("long#" + key.jobId(), occurrence);
        Map<String, AttributeValue> chunk = item("chunk#" + key.jobId() + "#" + occurrence, "c");
        assertThat(execution).containsKeys("execution", "executionArn", "fence", "startedAt", "planned", "ttl");
        assertThat(chunk).containsKeys("status", "attempts", "fence", "at", "ttl");
        assertThat(chunk.get("status").s()).isEqualTo("SUCCEEDED");
        sent.requests.clear();
        longRuns.recordChunk(claim.lease(), key, "h", new ChunkOutcome.Failed("x"));
        TransactWriteItemsRequest write = sent.requests.stream()
                .filter(TransactWriteItemsRequest.class::isInstance)
                .map(TransactWriteItemsRequest.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(write.transactItems()).hasSize(2);
        assertThat(write.transactItems().get(0).put().item().get("pk").s())
                .isEqualTo("chunk#" + key.jobId() + "#" + occurrence);
        assertThat(write.transactItems().get(1).conditionCheck().key().get("pk").s())
                .as("the entity's own lease: its lock item")
                .isEqualTo("lock#" + key.jobId());
        assertThat(write.transactItems().get(1).conditionCheck().conditionExpression())
                .isEqualTo(Expressions.LEASE_OURS_AT_FENCE);
    }

    private static Map<String, AttributeValue> item(String pk, String sk) {
        return DynamoDbHarness.client()
                .getItem(b -> b.tableName(table)
                        .key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk)))
                        .consistentRead(true))
                .item();
    }
}
