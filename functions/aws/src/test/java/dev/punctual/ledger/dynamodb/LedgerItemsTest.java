package dev.punctual.ledger.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.ledger.testkit.SequentialTokens;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/** The stored items match docs/ledger.md: keys, units (millis for logic, seconds for TTL), TTL on. */
class LedgerItemsTest {

    private static final Instant START = Instant.parse("2026-11-29T06:00:00Z");
    private static String table;

    private final MutableClock clock = new MutableClock(START.plusMillis(2500));

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(LedgerItemsTest.class);
    }

    @AfterAll
    static void dropTable() {
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    @Test
    void completedRun_isStoredUnderDocumentedKeys_withMillisForLogicAndSecondsForTtl() {
        RunLedger ledger = DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                table,
                clock,
                new SequentialTokens("items"),
                Retention.DEFAULT,
                clock::advance);
        RunKey key = new RunKey("report", START);
        ClaimRequest request = ClaimRequest.scheduled(key, 2, 3, clock.peek().plus(Duration.ofMinutes(5)));
        ledger.complete(((ClaimResult.Claimed) ledger.claim(request)).claim(), new Outcome.Succeeded("ok"));

        Map<String, AttributeValue> run = item("run#report", "2026-11-29T06:00:00.000Z");
        Map<String, AttributeValue> lock = item("lock#report", "lock");

        Instant finished = START.plusMillis(2500);
        assertThat(run.get("ttl").n())
                .isEqualTo(Long.toString(finished.plus(Duration.ofDays(35)).getEpochSecond()));
        assertThat(run.get("scheduledAt").n()).isEqualTo(Long.toString(START.toEpochMilli()));
        assertThat(run.get("finishedAt").n()).isEqualTo(Long.toString(finished.toEpochMilli()));
        assertThat(run.get("status").s()).isEqualTo("SUCCEEDED");
        assertThat(run.get("schedulerAttempt").n()).isEqualTo("2");
        assertThat(lock).doesNotContainKeys("ttl", "leaseOwner", "leaseUntil");
        assertThat(lock.get("cursor").n()).isEqualTo(Long.toString(START.toEpochMilli()));
        assertThat(lock.get("leaseFence").n()).isEqualTo("1");
    }

    @Test
    void table_hasTimeToLiveOnTheTtlAttribute() {
        var ttl = DynamoDbHarness.client()
                .describeTimeToLive(b -> b.tableName(table))
                .timeToLiveDescription();

        assertThat(ttl.attributeName()).isEqualTo(LedgerTable.TTL_ATTRIBUTE);
        assertThat(ttl.timeToLiveStatus()).isIn(TimeToLiveStatus.ENABLED, TimeToLiveStatus.ENABLING);
    }

    private static Map<String, AttributeValue> item(String pk, String sk) {
        return DynamoDbHarness.client()
                .getItem(b -> b.tableName(table)
                        .key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk)))
                        .consistentRead(true))
                .item();
    }
}
