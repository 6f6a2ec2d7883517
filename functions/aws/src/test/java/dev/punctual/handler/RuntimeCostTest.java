package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.json.Json;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Verdict;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * An entity on its own lease (decision 0029, 5), in order: one transaction takes the entity's lease
     * and claims (with the ConditionCheck on the job's group), one commits the run and releases it.
     */
    @Test
    void entityOccurrenceFollowingItsCursor_ownEntityLease_costsTwoLedgerRequests() {
        Instant day1 = Instant.parse("2026-11-30T14:00:00Z");
        Instant day2 = Instant.parse("2026-12-01T14:00:00Z");
        stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), day1, counter);
        JobDefinition report = JobDefinition.builder("tenant-report")
                .schedule("0 14 * * *", "UTC")
                .perEntity(EntityJob.parameters())
                .job(services -> context -> JobResult.empty())
                .build();
        PunctualRuntime runtime =
                Wiring.runtime(stage.env, stage.clients, JobCatalog.of(report), stage.clock, stage.lines::add);
        EntitySchedule acme = EntitySchedule.of(report, "acme", null, "UTC", Map.of());
        deliverEntity(runtime, acme, day1);
        ledgerRequests.clear();

        stage.clock.advance(Duration.ofDays(1));
        InvocationResult result = deliverEntity(runtime, acme, day2);

        assertThat(result.error()).isEmpty();
        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(ledgerRequests).containsExactly("TransactWriteItemsRequest", "TransactWriteItemsRequest");
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

    /** An entity's delivery as the scheduler fills its schedule's input. */
    private InvocationResult deliverEntity(PunctualRuntime runtime, EntitySchedule schedule, Instant at) {
        Map<String, Object> input = new LinkedHashMap<>(ScheduledPayload.forEntity(schedule));
        input.put(ScheduledPayload.SCHEDULED_TIME, at.toString());
        input.put(ScheduledPayload.EXECUTION_ID, java.util.UUID.randomUUID().toString());
        input.put(ScheduledPayload.ATTEMPT_NUMBER, "1");
        input.put(
                ScheduledPayload.SCHEDULE_ARN,
                "arn:aws:scheduler:us-east-1:123456789012:schedule/punctual-dev-entities/" + schedule.name());
        return runtime.handle(
                Json.write(input),
                Deadline.fromRemaining(stage.clock.instant(), Duration.ofMinutes(5)),
                new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard()));
    }

    private InvocationResult deliver(String job, Instant at) {
        String payload = "{\"kind\":\"scheduled\",\"job\":\"" + job + "\",\"scheduled_time\":\"" + at + "\"}";
        return stage.runtime.handle(
                payload,
                Deadline.fromRemaining(stage.clock.instant(), Duration.ofMinutes(5)),
                new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard()));
    }
}
