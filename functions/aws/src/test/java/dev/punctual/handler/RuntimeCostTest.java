package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Verdict;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * What one scheduled occurrence costs the ledger end to end, through the real handler wiring: the
 * ledger's own test counts its operations, this one counts what the runtime actually sends.
 */
class RuntimeCostTest {

    private final List<String> ledgerRequests = new CopyOnWriteArrayList<>();
    private EmulatorStage stage;

    private final ExecutionInterceptor counter = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (stage != null && request.toString().contains(stage.ledgerTable)) {
                ledgerRequests.add(request.getClass().getSimpleName());
            }
        }
    };

    @Test
    void scheduledOccurrenceFollowingTheCursor_ownLockGroup_costsTwoLedgerRequests() {
        Instant day1 = Instant.parse("2026-11-30T14:00:00Z");
        Instant day2 = Instant.parse("2026-12-01T14:00:00Z");
        stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), day1, counter);
        deliver(FixtureCatalog.DAILY, day1);
        ledgerRequests.clear();

        stage.clock.advance(Duration.ofDays(1));
        InvocationResult result = deliver(FixtureCatalog.DAILY, day2);

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(ledgerRequests).containsExactly("UpdateItemRequest", "TransactWriteItemsRequest");
    }

    @Test
    void scheduledOccurrenceFollowingTheCursor_sharedLockGroup_costsAtMostThreeLedgerRequests() {
        Instant first = Instant.parse("2026-11-30T00:00:00Z");
        stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), first, counter);
        deliver(FixtureCatalog.QUARTER_HOURLY, first);
        ledgerRequests.clear();

        stage.clock.advance(Duration.ofMinutes(15));
        InvocationResult result = deliver(FixtureCatalog.QUARTER_HOURLY, first.plus(Duration.ofMinutes(15)));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(ledgerRequests).hasSizeLessThanOrEqualTo(3);
    }

    @Test
    void duplicateDeliveryOfTheLatestSuccess_costsOneLedgerRequest() {
        Instant day1 = Instant.parse("2026-11-30T14:00:00Z");
        stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), day1, counter);
        deliver(FixtureCatalog.DAILY, day1);
        ledgerRequests.clear();

        InvocationResult again = deliver(FixtureCatalog.DAILY, day1);

        assertThat(again.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason().wire()).isEqualTo("ALREADY_DONE"));
        assertThat(ledgerRequests).hasSize(1);
    }

    private InvocationResult deliver(String job, Instant at) {
        String payload = "{\"kind\":\"scheduled\",\"job\":\"" + job + "\",\"scheduled_time\":\"" + at + "\"}";
        return stage.runtime.handle(
                payload,
                Deadline.fromRemaining(stage.clock.instant(), Duration.ofMinutes(5)),
                new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard()));
    }
}
