package dev.punctual.examples;

import static dev.punctual.examples.DemoTable.n;
import static dev.punctual.examples.DemoTable.s;

import dev.punctual.job.Job;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Refunds the key deposit of expired reservations, once each; shares a lock group with expiry. */
public final class RefundKeysJob implements Job {

    /** Refund an expired reservation once: the condition fails for one already refunded. */
    static final String REFUND_CONDITION = "#status = :expired AND (" + DemoTable.FENCE_GUARD + ")";

    private final DemoTable table;

    public RefundKeysJob(DemoTable table) {
        this.table = table;
    }

    @Override
    public JobResult run(JobContext context) {
        int refunded = 0;
        for (Map<String, AttributeValue> r : expired()) {
            refunded += refund(r, context) ? 1 : 0;
        }
        return JobResult.of("refunded", refunded);
    }

    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.changes(expired().size()));
    }

    private List<Map<String, AttributeValue>> expired() {
        return table.all(DemoTable.RESERVATIONS).stream()
                .filter(r -> "EXPIRED".equals(DemoTable.text(r, "status")))
                .toList();
    }

    private boolean refund(Map<String, AttributeValue> reservation, JobContext context) {
        return DemoTable.applied(() -> table.dynamo()
                .updateItem(b -> b.tableName(table.table())
                        .key(Map.of("pk", reservation.get("pk"), "sk", reservation.get("sk")))
                        .updateExpression("SET #status = :refunded, refundedAt = :at, fence = :fence")
                        .conditionExpression(REFUND_CONDITION)
                        .expressionAttributeNames(Map.of("#status", "status"))
                        .expressionAttributeValues(Map.of(
                                ":expired", s("EXPIRED"),
                                ":refunded", s("REFUNDED"),
                                ":at", s(context.occurrence().toString()),
                                ":fence", n(context.fence())))));
    }
}
