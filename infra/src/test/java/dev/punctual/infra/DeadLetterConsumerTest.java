package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobServices;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.LedgerHistory;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.RuntimeServices;
import dev.punctual.runtime.Undelivered;
import dev.punctual.stage.StageFlags;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The stage's dead-letter consumer (decision 0044) as synthesised: an event source with partial batch
 * responses on each queue of given-up deliveries, a redrive of each to the kept queue, its alarms, and a
 * role that allows exactly what the runtime's recording of a dead letter sends (run on the emulator,
 * recorded, and checked against the synthesised policy).
 */
class DeadLetterConsumerTest {

    private static final FunctionPool BATCH = new FunctionPool("batch", 512, Duration.ofMinutes(5));
    private static final JobCatalog CATALOG = new JobCatalog(List.of(
                    JobDefinition.builder("report")
                            .schedule("0 9 * * *", "UTC")
                            .job(services -> context -> JobResult.empty())
                            .build(),
                    JobDefinition.builder("refund")
                            .schedule("0 * * * *", "UTC")
                            .pool(BATCH)
                            .job(services -> context -> JobResult.empty())
                            .build()))
            .plus(List.of(MissedRunWatchdog.definition()));

    private static StageStack stage;
    private static Template template;

    @BeforeAll
    static void synth() {
        stage = Synth.stage(Stages.named("dev"), CATALOG);
        template = Template.fromStack(stage);
    }

    @Test
    void theSchedulersQueueAndEachPoolsOnFailureQueue_feedTheConsumer_withPartialBatchResponses() {
        String function = Templates.logicalId(stage.deadLetterConsumer().function());
        Map<String, Map<String, Object>> mappings = Templates.properties(template, "AWS::Lambda::EventSourceMapping");

        Set<String> sources = mappings.values().stream()
                .filter(m -> Templates.ref(function).equals(m.get("FunctionName")))
                .peek(m -> {
                    assertThat(m.get("FunctionResponseTypes")).isEqualTo(List.of("ReportBatchItemFailures"));
                    assertThat(m.get("BatchSize")).isEqualTo(DeadLetterConsumer.BATCH_SIZE);
                    assertThat(m.get("ScalingConfig"))
                            .isEqualTo(Map.of("MaximumConcurrency", DeadLetterConsumer.MAX_CONCURRENCY));
                })
                .map(m -> queueOf(m.get("EventSourceArn")))
                .collect(Collectors.toSet());

        assertThat(sources)
                .containsExactlyInAnyOrder(
                        Templates.logicalId(stage.schedulerDeadLetters()),
                        Templates.logicalId(stage.pools().get("default").failureQueue()),
                        Templates.logicalId(stage.pools().get("batch").failureQueue()));
        assertThat(sources)
                .as("the alerts' queue holds notices, not deliveries")
                .doesNotContain(Templates.logicalId(stage.alertDeadLetters()));
    }

    @Test
    void eachConsumedQueue_redrivesAMessageItKeepsFailingToTheKeptQueue_heldFourteenDays() {
        String kept = Templates.logicalId(stage.deadLetterConsumer().unreadable());
        Map<String, Map<String, Object>> queues = Templates.properties(template, "AWS::SQS::Queue");

        for (String consumed : List.of(
                Templates.logicalId(stage.schedulerDeadLetters()),
                Templates.logicalId(stage.pools().get("default").failureQueue()),
                Templates.logicalId(stage.pools().get("batch").failureQueue()))) {
            assertThat(queues.get(consumed).get("RedrivePolicy"))
                    .as(consumed)
                    .isEqualTo(Map.of(
                            "deadLetterTargetArn",
                            Templates.getAtt(kept, "Arn"),
                            "maxReceiveCount",
                            DeadLetterConsumer.MAX_RECEIVES));
        }
        assertThat(queues.get(kept).get("MessageRetentionPeriod")).isEqualTo(14 * 24 * 3600);
        assertThat(queues.get(kept)).doesNotContainKey("RedrivePolicy");
    }

    @Test
    void theUndeliveredMetricAndTheKeptQueue_eachHaveAnAlarmOnTheTopic() {
        Map<String, Map<String, Object>> alarms = Templates.properties(template, "AWS::CloudWatch::Alarm");

        assertThat(alarms.values())
                .anySatisfy(a -> {
                    assertThat(a.get("MetricName")).isEqualTo("Undelivered");
                    assertThat(a.get("Namespace")).isEqualTo("Punctual");
                    assertThat(a.get("AlarmName")).isEqualTo(Alerting.alarmName("dev", "Undelivered"));
                    assertThat(a.get("AlarmActions")).isNotNull();
                })
                .anySatisfy(a ->
                        assertThat(a.get("AlarmName")).isEqualTo(Alerting.alarmName("dev", "UnreadableDeadLetters")));
    }

    @Test
    void theConsumersRole_allowsEveryLedgerRequestARecordingSends_andNoOtherWrite() {
        String table = TestTables.uniqueName(DeadLetterConsumerTest.class, "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        MutableClock clock = new MutableClock(Instant.parse("2026-12-01T08:00:00Z"));
        LedgerRequests consumer = new LedgerRequests();
        PunctualRuntime recording = runtime(ledger(table, clock, consumer), clock);
        PunctualRuntime pool = runtime(ledger(table, clock, new LedgerRequests()), clock);
        StructuredLog log = new StructuredLog(line -> {}, clock, "punctual", Redactor.standard());
        pool.handle(
                "{\"kind\":\"run\",\"job\":\"refund\",\"at\":\"2026-11-30T10:00:00Z\"}",
                Deadline.fromRemaining(clock.instant(), Duration.ofMinutes(5)),
                log);

        List<Undelivered> outcomes = List.of(
                recording.recordUndelivered(delivery("report", "2026-11-30T09:00:00Z"), "ERROR_CODE=Throttled", log),
                recording.recordUndelivered(delivery("report", "2026-11-30T09:00:00Z"), "ERROR_CODE=Throttled", log),
                recording.recordUndelivered(delivery("refund", "2026-11-30T10:00:00Z"), "ERROR_CODE=Throttled", log));

        assertThat(outcomes)
                .extracting(o -> o.getClass().getSimpleName())
                .containsExactly("Recorded", "AlreadyRecorded", "Kept");
        LedgerPolicy policy = LedgerPolicy.ofRole(
                template,
                Templates.logicalId(stage.deadLetterConsumer().function().getRole()),
                Templates.logicalId(stage.tables().ledger()));
        assertThat(consumer.unexpected()).isEmpty();
        assertThat(consumer.accesses())
                .extracting(LedgerRequests.Access::action)
                .contains("dynamodb:GetItem", "dynamodb:PutItem");
        assertThat(consumer.accesses()).allMatch(policy::allows);
        assertThat(policy.actions()).containsExactlyInAnyOrder("dynamodb:GetItem", "dynamodb:PutItem");

        LedgerRequests.Access put = consumer.accesses().stream()
                .filter(a -> a.action().equals("dynamodb:PutItem"))
                .findFirst()
                .orElseThrow();
        for (String runsOnly : List.of("owner", "result", "error", "startedAt", "earlier")) {
            Set<String> more = new java.util.HashSet<>(put.attributes());
            more.add(runsOnly);
            assertThat(policy.allows(new LedgerRequests.Access(
                            put.action(), put.partitionKey(), put.sortKey(), more, put.returnValues())))
                    .as("a put naming " + runsOnly)
                    .isFalse();
        }
        assertThat(policy.allows(new LedgerRequests.Access(
                        "dynamodb:PutItem", "lock#report", "lock", Set.of("pk", "sk", "status"), "NONE")))
                .as("a put of a lock item")
                .isFalse();
        assertThat(policy.allows(new LedgerRequests.Access(
                        "dynamodb:UpdateItem", "lock#report", "lock", Set.of("pk", "sk", "cursor"), "NONE")))
                .as("a cursor move")
                .isFalse();
    }

    private static String delivery(String job, String at) {
        return "{\"kind\":\"scheduled\",\"job\":\"" + job + "\",\"scheduled_time\":\"" + at
                + "\",\"execution_id\":\"" + UUID.randomUUID() + "\",\"attempt_number\":\"186\","
                + "\"schedule_arn\":\"arn:aws:scheduler:eu-central-1:123456789012:schedule/punctual-dev/" + job + "\"}";
    }

    private static PunctualRuntime runtime(RunLedger ledger, MutableClock clock) {
        return new PunctualRuntime(new RuntimeServices(
                CATALOG,
                ledger,
                StageFlags.defaultsFor("dev"),
                event -> {},
                clock,
                clock::advance,
                new JobServices(clock, CATALOG, new LedgerHistory(ledger)),
                message -> new DeliveryReceipt.Sent(message.channel(), message.recipient())));
    }

    private static RunLedger ledger(String table, MutableClock clock, LedgerRequests requests) {
        DynamoDbClient client = DynamoDbHarness.newClient(
                builder -> builder.overrideConfiguration(c -> c.addExecutionInterceptor(requests)));
        return DynamoDbRunLedger.create(
                client, table, clock, () -> UUID.randomUUID().toString(), Retention.DEFAULT, clock::advance);
    }

    @SuppressWarnings("unchecked")
    private static String queueOf(Object arn) {
        return String.valueOf(((List<Object>) ((Map<String, Object>) arn).get("Fn::GetAtt")).get(0));
    }
}
