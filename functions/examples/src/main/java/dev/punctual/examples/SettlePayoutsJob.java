package dev.punctual.examples;

import static dev.punctual.examples.DemoTable.key;
import static dev.punctual.examples.DemoTable.n;
import static dev.punctual.examples.DemoTable.s;

import dev.punctual.job.Job;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Settles the refunded key deposits with the bank once per business day, keyed by the local date of the
 * occurrence ({@code settlement:2027-03-16}): the bank settles on Korean business days only, so the job
 * runs on business days of the public-holiday calendar and the company's closing days (decision 0034).
 */
public final class SettlePayoutsJob implements Job {

    static final String SETTLEMENTS = "settlement";

    private final DemoTable table;

    public SettlePayoutsJob(DemoTable table) {
        this.table = table;
    }

    @Override
    public JobResult run(JobContext context) {
        LocalDate day = context.localOccurrence().toLocalDate();
        long refunded = table.all(DemoTable.RESERVATIONS).stream()
                .filter(r -> "REFUNDED".equals(DemoTable.text(r, "status")))
                .count();
        Map<String, AttributeValue> item = new HashMap<>(key(SETTLEMENTS, day.toString()));
        item.put("refunded", n(refunded));
        item.put("occurrence", s(context.occurrence().toString()));
        item.put("fence", n(context.fence()));
        table.dynamo()
                .putItem(b -> b.tableName(table.table())
                        .item(item)
                        .conditionExpression(DemoTable.FENCE_GUARD)
                        .expressionAttributeValues(Map.of(":fence", n(context.fence()))));
        return JobResult.of("date", day.toString(), "refunded", refunded);
    }

    /** One settlement item per business day, written or rewritten. */
    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.changes(1));
    }
}
