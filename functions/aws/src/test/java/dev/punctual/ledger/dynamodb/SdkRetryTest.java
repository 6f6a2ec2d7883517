package dev.punctual.ledger.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.ledger.testkit.SequentialTokens;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * With the SDK's default retries (as in production), a retry after a lost response meets the state its
 * first send already wrote; the ledger recognises its own token instead of reporting Busy or fencing.
 */
class SdkRetryTest {

    private static final Instant START = Instant.parse("2026-11-29T06:00:00Z");
    private static String table;

    private final MutableClock clock = new MutableClock(START);

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(SdkRetryTest.class);
    }

    @AfterAll
    static void dropTable() {
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    @Test
    void lostResponses_ofAppliedClaimAndCommit_retriedBySdk_claimAndCompleteOnce() {
        LoseResponses losses = new LoseResponses("UpdateItem", "TransactWriteItems");
        try (DynamoDbClient dynamo =
                DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(losses)))) {
            RunLedger ledger = DynamoDbRunLedger.create(
                    dynamo, table, clock, new SequentialTokens("retry"), Retention.DEFAULT, clock::advance);
            RunKey key = new RunKey("report", START);

            ClaimResult claimed =
                    ledger.claim(ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(5))));
            Claim claim = ((ClaimResult.Claimed) claimed).claim();
            CompletionResult done = ledger.complete(claim, new Outcome.Succeeded(null));

            assertThat(losses.allLost())
                    .as("both responses were lost and retried")
                    .isTrue();
            assertThat(claim.fence()).isEqualTo(1);
            assertThat(done).isInstanceOf(CompletionResult.Completed.class);
            assertThat(ledger.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.run(key).orElseThrow().attempts()).isEqualTo(1);
        }
    }

    @Test
    void lostResponse_ofAnAppliedChunkRecord_retriedBySdk_isRecordedOnce_notTakenForAnothersSuccess() {
        LoseResponses losses = new LoseResponses("TransactWriteItems");
        RunLedger clean = DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                table,
                clock,
                new SequentialTokens("chunk"),
                Retention.DEFAULT,
                clock::advance);
        RunKey key = new RunKey("close", START);
        Claim claim = ((ClaimResult.Claimed) clean.claim(
                        ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(5)))))
                .claim();
        try (DynamoDbClient dynamo =
                DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(losses)))) {
            RunLedger ledger = DynamoDbRunLedger.create(
                    dynamo, table, clock, new SequentialTokens("chunk2"), Retention.DEFAULT, clock::advance);

            dev.punctual.ledger.ChunkWrite write = ledger.longRuns()
                    .recordChunk(
                            claim.lease(),
                            key,
                            "c4",
                            new dev.punctual.ledger.ChunkOutcome.Succeeded("{\"chunk\":\"c4\"}"));

            assertThat(losses.allLost())
                    .as("the record's response was lost and retried")
                    .isTrue();
            assertThat(write).isInstanceOf(dev.punctual.ledger.ChunkWrite.Recorded.class);
            assertThat(ledger.longRuns().chunk(key, "c4").orElseThrow().attempts())
                    .isEqualTo(1);
        }
    }
}
