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

/**
 * Expires held reservations whose hold ran out by the occurrence. It shares the {@code reservations}
 * lock group with {@link RefundKeysJob}: both touch the same items and must never overlap.
 */
public final class ExpireReservationsJob implements Job {

    /** Only a still-held reservation expires, and only under a fence at least as new as the last write. */
    static final String EXPIRE_CONDITION = "#status = :held AND (" + DemoTable.FENCE_GUARD + ")";

    private final DemoTable table;

    public ExpireReservationsJob(DemoTable table) {
        this.table = table;
    }

    @Override
    public JobResult run(JobContext context) {
        int expired = 0;
        for (Map<String, AttributeValue> r : due(context)) {
            expired += expire(r, context.fence()) ? 1 : 0;
        }
        return JobResult.of("expired", expired);
    }

    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.changes(due(context).size()));
    }

    /** Held reservations whose hold ran out by the occurrence. */
    private List<Map<String, AttributeValue>> due(JobContext context) {
        long cutoff = context.occurrence().toEpochMilli();
        return table.all(DemoTable.RESERVATIONS).stream()
                .filter(r -> "HELD".equals(DemoTable.text(r, "status")) && DemoTable.number(r, "holdUntil") <= cutoff)
                .toList();
    }

    private boolean expire(Map<String, AttributeValue> reservation, long fence) {
        return DemoTable.applied(() -> table.dynamo()
                .updateItem(b -> b.tableName(table.table())
                        .key(Map.of("pk", reservation.get("pk"), "sk", reservation.get("sk")))
                        .updateExpression("SET #status = :expired, fence = :fence")
                        .conditionExpression(EXPIRE_CONDITION)
                        .expressionAttributeNames(Map.of("#status", "status"))
                        .expressionAttributeValues(
                                Map.of(":held", s("HELD"), ":expired", s("EXPIRED"), ":fence", n(fence)))));
    }
}
