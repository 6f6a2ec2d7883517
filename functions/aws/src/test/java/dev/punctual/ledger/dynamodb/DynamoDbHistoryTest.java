package dev.punctual.ledger.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.HistoryQuery;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.testkit.HistoryContract;
import dev.punctual.ledger.testkit.SequentialTokens;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/** The history contract against DynamoDB on the emulator: one Query of the run partition, read backwards. */
class DynamoDbHistoryTest extends HistoryContract {

    private static String table;
    private static final List<DynamoDbClient> extraClients = new ArrayList<>();

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(DynamoDbHistoryTest.class);
    }

    @AfterAll
    static void dropTable() {
        extraClients.forEach(DynamoDbClient::close);
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    @Override
    protected LedgerStore store() {
        return new DynamoDbLedgerStore(DynamoDbHarness.client(), table);
    }

    @Override
    protected LedgerStore store(int page) {
        return new DynamoDbLedgerStore(DynamoDbHarness.client(), table, page);
    }

    /** Every request a client sent, as built. */
    private static final class Sent implements ExecutionInterceptor {
        final List<SdkRequest> requests = new CopyOnWriteArrayList<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            requests.add(context.request());
        }
    }

    private static RunLedger ledger(DynamoDbClient client, Integer page) {
        return new LedgerEngine(
                new DynamoDbLedgerStore(client, table, page),
                clock,
                new SequentialTokens("t" + UUID.randomUUID()),
                Retention.DEFAULT,
                clock::advance);
    }

    private static final dev.punctual.ledger.testkit.MutableClock clock =
            new dev.punctual.ledger.testkit.MutableClock(Instant.parse("2026-11-30T10:00:00Z"));

    @Test
    void aHistorySends_oneGetItemAndEventuallyConsistentQueriesReadBackwards_readingNoItemBeyondTheBound() {
        String job = "h" + UUID.randomUUID().toString().substring(0, 8) + "-cost";
        RunLedger writer = ledger(DynamoDbHarness.client(), null);
        for (int d = 1; d <= 7; d++) {
            RunKey key = new RunKey(job, Instant.parse("2026-11-20T09:00:00Z").plus(Duration.ofDays(d)));
            Claim claim = ((ClaimResult.Claimed) writer.claim(
                            ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(5)))))
                    .claim();
            writer.complete(claim, new Outcome.Succeeded("records=1"));
        }
        Sent sent = new Sent();
        DynamoDbClient metered =
                DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(sent)));
        extraClients.add(metered);

        assertThat(ledger(metered, 2).history(job, HistoryQuery.last(3)).rows()).hasSize(3);
        List<SdkRequest> pagedByTwo = List.copyOf(sent.requests);
        sent.requests.clear();
        assertThat(ledger(metered, null)
                        .history(job, HistoryQuery.last(HistoryQuery.DEFAULT))
                        .rows())
                .hasSize(7);
        List<SdkRequest> ownPages = List.copyOf(sent.requests);

        // Three rows and one more to know whether there are more: two pages of two, never a third.
        assertThat(pagedByTwo).filteredOn(GetItemRequest.class::isInstance).hasSize(1);
        List<QueryRequest> queries = pagedByTwo.stream()
                .filter(QueryRequest.class::isInstance)
                .map(QueryRequest.class::cast)
                .toList();
        assertThat(queries).hasSize(2).allSatisfy(q -> {
            assertThat(q.consistentRead()).isFalse();
            assertThat(q.scanIndexForward()).isFalse();
            assertThat(q.limit()).isEqualTo(2);
            assertThat(q.keyConditionExpression()).isEqualTo(Expressions.RUNS_OF_SUBJECT);
        });
        assertThat(queries.get(1).exclusiveStartKey()).isNotEmpty();
        // On DynamoDB's own pages: one Query whose Limit is the default's 20 rows and the one more.
        assertThat(ownPages).filteredOn(GetItemRequest.class::isInstance).hasSize(1);
        assertThat(ownPages)
                .filteredOn(QueryRequest.class::isInstance)
                .singleElement()
                .satisfies(q -> assertThat(((QueryRequest) q).limit()).isEqualTo(HistoryQuery.DEFAULT + 1));
    }
}
