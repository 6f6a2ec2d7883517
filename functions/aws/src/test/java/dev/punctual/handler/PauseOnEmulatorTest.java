package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.ledger.PauseOutcome;
import dev.punctual.ledger.ResumeChoice;
import dev.punctual.ledger.ResumeOutcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.OccurrenceReport;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * A pause through the real handler wiring on the emulator (decision 0040): pause, a scheduled delivery is a
 * recorded PAUSED skip at no more ledger requests than a run, resume, the next delivery runs (and, resumed
 * with catch-up, catches the paused occurrence up as the job's policy allows). Requests counted as the
 * runtime sends them.
 */
class PauseOnEmulatorTest {

    private static final String JOB = FixtureCatalog.DAILY;
    private static final Instant DAY1 = Instant.parse("2026-11-30T14:00:00Z");

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

    /** The operator's ledger on the same table and clock (what the CLI builds). */
    private RunLedger operatorLedger() {
        return DynamoDbRunLedger.create(
                stage.clients.dynamo(),
                stage.ledgerTable,
                stage.clock,
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> stage.clock.advance(d));
    }

    @Test
    void pause_deliveryIsARecordedPausedSkipAtTwoRequests_resumeWithCatchUp_nextDeliveryRunsAndCatchesUp() {
        stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), DAY1, counter);
        deliver(DAY1);
        stage.clock.advance(Duration.ofDays(1));
        ledgerRequests.clear();
        assertThat(single(deliver(day(2))).verdict()).isEqualTo(Verdict.PASS);
        assertThat(ledgerRequests)
                .as("an unpaused delivery")
                .containsExactly("UpdateItemRequest", "TransactWriteItemsRequest");
        RunLedger ops = operatorLedger();
        assertThat(ops.pause(JOB, "ops-oncall", "supplier outage", Optional.empty(), true))
                .isInstanceOf(PauseOutcome.Set.class);

        stage.clock.advance(Duration.ofDays(1));
        ledgerRequests.clear();
        OccurrenceReport paused = single(deliver(day(3)));

        assertThat(paused.reason()).isEqualTo(Reason.PAUSED);
        assertThat(paused.detail()).contains("paused by ops-oncall", "supplier outage");
        assertThat(ledgerRequests)
                .as("a paused delivery: the refused claim and the skip")
                .hasSizeLessThanOrEqualTo(2);
        RunRecord recorded = ops.run(new RunKey(JOB, day(3))).orElseThrow();
        assertThat(recorded.status()).isEqualTo(RunStatus.SKIPPED);
        assertThat(recorded.reason()).startsWith("PAUSED").contains("supplier outage");
        assertThat(ops.cursor(JOB)).as("the cursor stays").contains(day(2));

        assertThat(ops.resume(JOB, ResumeChoice.CATCH_UP)).isInstanceOf(ResumeOutcome.Resumed.class);
        stage.clock.advance(Duration.ofDays(1));
        InvocationResult next = deliver(day(4));

        assertThat(next.occurrences())
                .filteredOn(o -> o.occurrence().equals(day(4)))
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(ops.run(new RunKey(JOB, day(3))).orElseThrow().status())
                .as("the paused occurrence caught up")
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ops.cursor(JOB)).contains(day(4));
    }

    @Test
    void resumeSkippingThePaused_thePausedOccurrenceStaysPaused_andTheNextDeliveryRunsPastIt() {
        stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), DAY1, counter);
        deliver(DAY1);
        RunLedger ops = operatorLedger();
        ops.pause(JOB, "ops-oncall", "migration", Optional.empty(), true);
        stage.clock.advance(Duration.ofDays(1));
        assertThat(single(deliver(day(2))).reason()).isEqualTo(Reason.PAUSED);

        stage.clock.advance(Duration.ofHours(1));
        assertThat(ops.resume(JOB, ResumeChoice.SKIP_PAUSED)).isInstanceOf(ResumeOutcome.Resumed.class);
        stage.clock.advance(Duration.ofHours(23));
        InvocationResult next = deliver(day(3));

        assertThat(next.occurrences())
                .as("catch-up meets the paused occurrence, still refused, and runs the delivered one")
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(day(2), Reason.PAUSED),
                        org.assertj.core.groups.Tuple.tuple(day(3), Reason.OK));
        assertThat(ops.run(new RunKey(JOB, day(2))).orElseThrow().status())
                .as("never run")
                .isEqualTo(RunStatus.SKIPPED);
        assertThat(ops.cursor(JOB)).contains(day(3));
    }

    private static Instant day(int n) {
        return DAY1.plus(Duration.ofDays(n - 1));
    }

    private static OccurrenceReport single(InvocationResult result) {
        assertThat(result.occurrences()).hasSize(1);
        return result.occurrences().get(0);
    }

    private InvocationResult deliver(Instant at) {
        String payload = "{\"kind\":\"scheduled\",\"job\":\"" + JOB + "\",\"scheduled_time\":\"" + at + "\"}";
        return stage.runtime.handle(
                payload,
                Deadline.fromRemaining(stage.clock.instant(), Duration.ofMinutes(5)),
                new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard()));
    }
}
