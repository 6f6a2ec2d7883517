package dev.punctual.ledger.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A fenced completion is two requests on DynamoDB (the failed run item, then the slot). When the second
 * never lands — the connection drops, or the Lambda dies at its deadline — the slot stays "running"
 * for a dead owner whose failure is already recorded. The next claim must still close that slot.
 */
class FencedSlotWedgeTest {

    private static final Instant START = Instant.parse("2026-11-29T06:00:00Z");
    private static String table;

    private final MutableClock clock = new MutableClock(START);
    private final AtomicBoolean dropSlotUpdates = new AtomicBoolean();

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(FencedSlotWedgeTest.class);
    }

    @AfterAll
    static void dropTable() {
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    @Test
    void fencedRunWhoseSlotUpdateWasLost_doesNotWedgeTheJob_theNextClaimClosesTheSlotAndProceeds() {
        RunLedger ledger = DynamoDbRunLedger.create(
                LedgerTables.clientWith(new DropSlotFinish()),
                table,
                clock,
                new SequentialTokens("wedge"),
                Retention.DEFAULT,
                clock::advance);
        RunKey first = new RunKey("wedge", START);
        ClaimRequest request = ClaimRequest.scheduled(first, 1, 3, clock.peek().plus(Duration.ofMinutes(1)));
        var claim = ((ClaimResult.Claimed) ledger.claim(request)).claim();
        clock.advance(Duration.ofMinutes(2)); // the lease ends while the job still runs
        dropSlotUpdates.set(true);

        CompletionResult late = ledger.complete(claim, new Outcome.Succeeded("too late"));
        dropSlotUpdates.set(false);
        RunKey next = new RunKey("wedge", START.plus(Duration.ofMinutes(15)));
        clock.advance(Duration.ofMinutes(13)); // the next delivery arrives at its own time
        ClaimResult result =
                ledger.claim(ClaimRequest.scheduled(next, 1, 3, clock.peek().plus(Duration.ofMinutes(5))));

        assertThat(late).isInstanceOf(CompletionResult.Fenced.class);
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(ledger.run(first))
                .hasValueSatisfying(r -> assertThat(r.status()).isIn(RunStatus.FAILED, RunStatus.ABANDONED));
    }

    /** Fails, before sending, the update that marks the slot finished, while armed. */
    private final class DropSlotFinish implements ExecutionInterceptor {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (dropSlotUpdates.get()
                    && context.request() instanceof UpdateItemRequest update
                    && update.updateExpression() != null
                    && update.updateExpression().contains(Expressions.SLOT_FINISHED)) {
                throw SdkClientException.create("connection reset (injected)");
            }
        }
    }
}
