package dev.punctual.handler;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.punctual.job.JobCatalog;
import dev.punctual.observability.Metric;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.Undelivered;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * The stage's dead-letter consumer (decision 0044): an SQS event source on the queues that hold given-up
 * deliveries of occurrences (the Scheduler's dead-letter queue, each pool's on-failure destination).
 * Thin: each message is read into its payload and why it was given up ({@link DeadLetter}), and the
 * runtime records the occurrence as UNDELIVERED without running it. A message it cannot read as such a
 * delivery, or whose recording met a fault, is reported in {@code batchItemFailures}: SQS keeps it and
 * delivers it again, and after the queue's receive limit moves it to the stage's unreadable dead-letter
 * queue, which is kept 14 days and alarmed. One metric datum per batch that recorded anything.
 */
public final class DeadLetterHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    /** The EMF metric (namespace Punctual, dimension stage) the stage's {@code Undelivered} alarm pages on. */
    public static final String METRIC = "Undelivered";

    public static final String HANDLER = "dev.punctual.handler.DeadLetterHandler::handleRequest";

    private final PunctualRuntime runtime;
    private final StructuredLog log;

    /** Lambda's constructor: wires the runtime from the function's environment, as a pool's handler does. */
    public DeadLetterHandler() {
        this(FromEnvironment.RUNTIME, FromEnvironment.LOG);
    }

    DeadLetterHandler(PunctualRuntime runtime, StructuredLog log) {
        this.runtime = runtime;
        this.log = log;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        StructuredLog invocationLog = log.forInvocation(context.getAwsRequestId(), false);
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        int recorded = 0;
        List<SQSEvent.SQSMessage> messages = event.getRecords() == null ? List.of() : event.getRecords();
        for (SQSEvent.SQSMessage message : messages) {
            DeadLetter letter = DeadLetter.of(message);
            Undelivered outcome;
            try {
                outcome = runtime.recordUndelivered(letter.payload(), letter.detail(), invocationLog);
            } catch (RuntimeException fault) {
                // The ledger throttled or timed out: SQS delivers the message again after its visibility
                // timeout; nothing was lost and a second recording is idempotent.
                invocationLog.error("dead letter not recorded", fields(message, PunctualHandler.faultFields(fault)));
                failures.add(failure(message));
                continue;
            }
            switch (outcome) {
                case Undelivered.Recorded r -> recorded++;
                case Undelivered.AlreadyRecorded a -> {}
                case Undelivered.Kept k -> {}
                case Undelivered.OutsideRule o ->
                    invocationLog.info(
                            "dead letter of a firing outside the rule consumed",
                            fields(message, Map.of("job", o.jobId(), "detail", o.why())));
                case Undelivered.Unreadable u -> {
                    invocationLog.error(
                            "unreadable dead letter kept",
                            fields(message, Map.of("error_code", u.code(), "error", u.why())));
                    failures.add(failure(message));
                }
            }
        }
        if (recorded > 0) {
            String stage = runtime.services().flags().stage();
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("stage", stage);
            fields.put("messages", messages.size());
            fields.put("recorded", recorded);
            fields.put("kept_for_a_person", failures.size());
            invocationLog.metrics(
                    StructuredLog.Level.WARN,
                    "dead-lettered deliveries recorded",
                    fields,
                    Map.of("stage", stage),
                    List.of(Metric.count(METRIC, recorded)));
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
    }

    private static SQSBatchResponse.BatchItemFailure failure(SQSEvent.SQSMessage message) {
        return SQSBatchResponse.BatchItemFailure.builder()
                .withItemIdentifier(message.getMessageId())
                .build();
    }

    private static Map<String, Object> fields(SQSEvent.SQSMessage message, Map<String, ?> more) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("message_id", message.getMessageId());
        fields.put("queue", message.getEventSourceArn());
        Map<String, String> attributes = message.getAttributes();
        fields.put("receive_count", attributes == null ? null : attributes.get("ApproximateReceiveCount"));
        fields.putAll(more);
        return fields;
    }

    /** Built on first use of the no-argument constructor, in Lambda's init phase. */
    private static final class FromEnvironment {
        static final Map<String, String> ENV = System.getenv();
        static final Clock CLOCK = Clock.systemUTC();
        static final JobCatalog CATALOG = Wiring.catalog(ENV, CLOCK);
        static final Wiring.Clients CLIENTS =
                Wiring.clients(ENV, DefaultCredentialsProvider.builder().build());
        static final PunctualRuntime RUNTIME = Wiring.runtime(ENV, CLIENTS, CATALOG, CLOCK, System.out::println);
        static final StructuredLog LOG = Wiring.log(System.out::println, CLOCK);

        private FromEnvironment() {}
    }
}
