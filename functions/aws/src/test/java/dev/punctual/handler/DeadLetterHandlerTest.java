package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.json.Json;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Trigger;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Reason;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.stage.StageFlags;
import dev.punctual.testing.FakeLambdaContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter consumer (decision 0044), driven with SQS events shaped as the stage's queues hold
 * given-up deliveries, against the ledger on the emulator.
 */
class DeadLetterHandlerTest {

    /** 09:00 in New York on 2026-11-30, the fixture's daily occurrence. */
    private static final Instant OCCURRENCE = Instant.parse("2026-11-30T14:00:00Z");

    /** The message is read the next day: a dead letter waits in its queue until the consumer polls. */
    private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

    private static final String SCHEDULE_ARN =
            "arn:aws:scheduler:eu-central-1:123456789012:schedule/punctual-dev/" + FixtureCatalog.DAILY;

    private static final RunKey KEY = new RunKey(FixtureCatalog.DAILY, OCCURRENCE);

    @Test
    void aSchedulersDeadLetter_isRecordedUndeliveredWithItsError_andNothingRuns() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);

        SQSBatchResponse response = handler(stage).handleRequest(event(schedulerDeadLetter("m-1")), context());

        assertThat(response.getBatchItemFailures()).isEmpty();
        RunRecord record = stage.runtime.services().ledger().run(KEY).orElseThrow();
        assertThat(record.status()).isEqualTo(RunStatus.SKIPPED);
        assertThat(record.attempts()).as("a skip is no attempt: nothing ran").isZero();
        assertThat(record.trigger()).isEqualTo(Trigger.SCHEDULED);
        assertThat(record.schedulerAttempt()).isEqualTo(186);
        assertThat(record.reason())
                .startsWith("UNDELIVERED: the scheduler gave the delivery up")
                .contains("ERROR_CODE=AWS.Lambda.AccessDeniedException")
                .contains("RETRY_ATTEMPTS=185")
                .contains("EXHAUSTED_RETRY_CONDITION=MaximumRetryAttemptsExceeded")
                .doesNotContain("AKIAABCDEFGHIJKLMNOP");
        assertThat(stage.runtime.services().ledger().cursor(FixtureCatalog.DAILY))
                .as("the cursor stays: the occurrence is still to be done")
                .isEmpty();
        assertThat(stage.lines)
                .filteredOn(l -> l.contains("dead-lettered deliveries recorded"))
                .singleElement()
                .satisfies(l -> assertThat(l).contains("\"Undelivered\"", "\"recorded\":1"));
    }

    @Test
    void theSameMessageDeliveredTwice_recordsOnce_andPagesOnlyForTheFirstBatch() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        DeadLetterHandler handler = handler(stage);
        handler.handleRequest(event(schedulerDeadLetter("m-1")), context());
        RunRecord first = stage.runtime.services().ledger().run(KEY).orElseThrow();
        stage.clock.advance(Duration.ofMinutes(5));

        SQSBatchResponse again = handler.handleRequest(event(schedulerDeadLetter("m-1")), context());

        assertThat(again.getBatchItemFailures()).isEmpty();
        assertThat(stage.runtime.services().ledger().run(KEY)).contains(first);
        assertThat(stage.lines)
                .filteredOn(l -> l.contains("dead-lettered deliveries recorded"))
                .hasSize(1);
    }

    @Test
    void aLambdaOnFailureRecord_isReadForItsRequestPayload_andRecorded() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        String record = """
                {"version":"1.0","timestamp":"2026-11-30T20:00:01.000Z",
                 "requestContext":{"requestId":"r-9","functionArn":"arn:aws:lambda:eu-central-1:123456789012:function:pool:live",
                   "condition":"RetriesExhausted","approximateInvokeCount":3},
                 "requestPayload":%s,
                 "responseContext":{"statusCode":200,"executedVersion":"7","functionError":"Unhandled"},
                 "responsePayload":{"errorType":"java.lang.OutOfMemoryError","errorMessage":"Java heap space"}}""".formatted(Json.write(deliveredPayload()));

        SQSBatchResponse response = handler(stage).handleRequest(event(message("m-2", record, Map.of())), context());

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(stage.runtime.services().ledger().run(KEY).orElseThrow().reason())
                .startsWith("UNDELIVERED: Lambda's async retries gave the invocation up")
                .contains("condition=RetriesExhausted", "invocations=3", "errorMessage=Java heap space");
    }

    @Test
    void anOccurrenceThatRanMeanwhile_keepsItsRecord_andTheMessageIsDone() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        InvocationResult ran = stage.runtime.handle(
                "{\"kind\":\"run\",\"job\":\"" + FixtureCatalog.DAILY + "\",\"at\":\"" + OCCURRENCE + "\"}",
                deadline(stage),
                log(stage));
        assertThat(ran.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));

        SQSBatchResponse response = handler(stage).handleRequest(event(schedulerDeadLetter("m-3")), context());

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(stage.runtime.services().ledger().run(KEY).orElseThrow().status())
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(stage.lines).noneMatch(l -> l.contains("dead-lettered deliveries recorded"));
    }

    @Test
    void malformedForeignAndNonOccurrenceMessages_areKeptInBatchItemFailures_andWriteNothing() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        Map<String, Object> unknownJob = deliveredPayload();
        unknownJob.put(ScheduledPayload.JOB, "no-such-job");
        Map<String, Object> notAnOccurrence = deliveredPayload();
        notAnOccurrence.put(ScheduledPayload.SCHEDULED_TIME, "2026-11-30T14:07:00Z");

        SQSBatchResponse response = handler(stage)
                .handleRequest(
                        event(
                                message("not-json", "this is not a delivery {", Map.of()),
                                message("unknown-job", Json.write(unknownJob), Map.of()),
                                message("not-an-occurrence", Json.write(notAnOccurrence), Map.of()),
                                message("a-ping", "{\"kind\":\"ping\"}", Map.of()),
                                schedulerDeadLetter("good")),
                        context());

        assertThat(response.getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("not-json", "unknown-job", "not-an-occurrence", "a-ping");
        assertThat(stage.runtime
                        .services()
                        .ledger()
                        .run(new RunKey(FixtureCatalog.DAILY, Instant.parse("2026-11-30T14:07:00Z"))))
                .isEmpty();
        assertThat(stage.runtime.services().ledger().run(KEY))
                .as("the readable one in the same batch is recorded")
                .hasValueSatisfying(r -> assertThat(r.reason()).startsWith("UNDELIVERED"));
        assertThat(stage.lines)
                .filteredOn(l -> l.contains("unreadable dead letter kept"))
                .hasSize(4)
                .anySatisfy(l -> assertThat(l).contains("UNKNOWN_JOB"));
    }

    @Test
    void aDeadLetteredFiringOutsideAnRrule_isConsumed_notKeptForAPerson_andWritesNothing() {
        // export-ledger runs every other Monday from 7 December; its deployed cron fires every Monday, so
        // 14 December 09:00 Berlin is a firing the rule does not have (decision 0049).
        Instant cronOnly = Instant.parse("2026-12-14T08:00:00Z");
        EmulatorStage stage =
                new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), Instant.parse("2026-12-15T08:00:00Z"));
        Map<String, Object> payload = new LinkedHashMap<>(ScheduledPayload.forJob(FixtureCatalog.FORTNIGHTLY));
        payload.put(ScheduledPayload.SCHEDULED_TIME, cronOnly.toString());
        payload.put(ScheduledPayload.EXECUTION_ID, "e-0049");
        payload.put(ScheduledPayload.ATTEMPT_NUMBER, "186");
        payload.put(
                ScheduledPayload.SCHEDULE_ARN,
                "arn:aws:scheduler:eu-central-1:123456789012:schedule/punctual-dev/" + FixtureCatalog.FORTNIGHTLY);

        SQSBatchResponse response =
                handler(stage).handleRequest(event(message("m-rule", Json.write(payload), Map.of())), context());

        assertThat(response.getBatchItemFailures())
                .as("nothing to keep for a person: a delivery would have written nothing either")
                .isEmpty();
        assertThat(stage.runtime.services().ledger().run(new RunKey(FixtureCatalog.FORTNIGHTLY, cronOnly)))
                .isEmpty();
        assertThat(stage.lines)
                .filteredOn(l -> l.contains("dead letter of a firing outside the rule consumed"))
                .singleElement()
                .satisfies(l -> assertThat(l).contains(FixtureCatalog.FORTNIGHTLY));
        assertThat(stage.lines).noneMatch(l -> l.contains("\"Undelivered\"") || l.contains("unreadable dead letter"));
    }

    @Test
    void aLedgerFault_putsTheMessageInBatchItemFailures_soSqsDeliversItAgain() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        stage.clients.dynamo().deleteTable(b -> b.tableName(stage.ledgerTable));

        SQSBatchResponse response = handler(stage).handleRequest(event(schedulerDeadLetter("m-4")), context());

        assertThat(response.getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("m-4");
        assertThat(stage.lines)
                .anySatisfy(l -> assertThat(l).contains("dead letter not recorded", "\"message_id\":\"m-4\""));
    }

    @Test
    void anUndeliveredOccurrence_isRunByAReplay() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        handler(stage).handleRequest(event(schedulerDeadLetter("m-5")), context());

        InvocationResult replay = stage.runtime.handle(
                "{\"kind\":\"replay\",\"job\":\"" + FixtureCatalog.DAILY + "\",\"from\":\"" + OCCURRENCE
                        + "\",\"to\":\"" + OCCURRENCE.plusSeconds(60) + "\"}",
                deadline(stage),
                log(stage));

        assertThat(replay.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        RunRecord record = stage.runtime.services().ledger().run(KEY).orElseThrow();
        assertThat(record.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(record.trigger()).isEqualTo(Trigger.REPLAY);
    }

    /** The schedule's input with its context attributes as the Scheduler fills them in. */
    private static Map<String, Object> deliveredPayload() {
        Map<String, Object> payload = new LinkedHashMap<>(ScheduledPayload.forJob(FixtureCatalog.DAILY));
        payload.put(ScheduledPayload.SCHEDULED_TIME, OCCURRENCE.toString());
        payload.put(ScheduledPayload.EXECUTION_ID, "e-7f3a");
        payload.put(ScheduledPayload.ATTEMPT_NUMBER, "186");
        payload.put(ScheduledPayload.SCHEDULE_ARN, SCHEDULE_ARN);
        return payload;
    }

    /** As the Scheduler writes it to its dead-letter queue: the target's input, and why, as attributes. */
    private static SQSEvent.SQSMessage schedulerDeadLetter(String id) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("ERROR_CODE", "AWS.Lambda.AccessDeniedException");
        attributes.put(
                "ERROR_MESSAGE",
                "User: arn:aws:sts::123456789012:assumed-role/scheduler is not authorized (key AKIAABCDEFGHIJKLMNOP)");
        attributes.put("EXHAUSTED_RETRY_CONDITION", "MaximumRetryAttemptsExceeded");
        attributes.put("RETRY_ATTEMPTS", "185");
        attributes.put("SCHEDULE_ARN", SCHEDULE_ARN);
        attributes.put("TARGET_ARN", "arn:aws:lambda:eu-central-1:123456789012:function:pool:live");
        return message(id, Json.write(deliveredPayload()), attributes);
    }

    private static SQSEvent.SQSMessage message(String id, String body, Map<String, String> attributes) {
        SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
        message.setMessageId(id);
        message.setBody(body);
        message.setEventSource("aws:sqs");
        message.setEventSourceArn("arn:aws:sqs:eu-central-1:123456789012:Punctual-dev-SchedulerDeadLetters");
        message.setAttributes(Map.of("ApproximateReceiveCount", "1"));
        Map<String, SQSEvent.MessageAttribute> typed = new LinkedHashMap<>();
        attributes.forEach((name, value) -> {
            SQSEvent.MessageAttribute attribute = new SQSEvent.MessageAttribute();
            attribute.setDataType("String");
            attribute.setStringValue(value);
            typed.put(name, attribute);
        });
        message.setMessageAttributes(typed);
        return message;
    }

    private static SQSEvent event(SQSEvent.SQSMessage... messages) {
        SQSEvent event = new SQSEvent();
        event.setRecords(new ArrayList<>(List.of(messages)));
        return event;
    }

    private static DeadLetterHandler handler(EmulatorStage stage) {
        return new DeadLetterHandler(stage.runtime, log(stage));
    }

    private static StructuredLog log(EmulatorStage stage) {
        return new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard());
    }

    private static Deadline deadline(EmulatorStage stage) {
        return Deadline.fromRemaining(stage.clock.instant(), Duration.ofMinutes(5), Duration.ofSeconds(2));
    }

    private static FakeLambdaContext context() {
        return new FakeLambdaContext("req-dl", 60_000);
    }
}
