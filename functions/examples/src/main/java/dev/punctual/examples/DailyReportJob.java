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
 * Writes the day's member report, keyed by the local date of the occurrence (like
 * {@code report:2026-11-29}): running it twice for one day rewrites the same item, never a second one.
 */
public final class DailyReportJob implements Job {

    private final DemoTable table;

    public DailyReportJob(DemoTable table) {
        this.table = table;
    }

    @Override
    public JobResult run(JobContext context) {
        LocalDate day = context.localOccurrence().toLocalDate();
        int members = table.all(DemoTable.MEMBERS).size();
        Map<String, AttributeValue> item = new HashMap<>(key(DemoTable.REPORTS, day.toString()));
        item.put("members", n(members));
        item.put("occurrence", s(context.occurrence().toString()));
        item.put("fence", n(context.fence()));
        table.dynamo()
                .putItem(b -> b.tableName(table.table())
                        .item(item)
                        .conditionExpression(DemoTable.FENCE_GUARD)
                        .expressionAttributeValues(Map.of(":fence", n(context.fence()))));
        return JobResult.of("date", day.toString(), "members", members);
    }

    /** One report item per local day, written or rewritten. */
    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.changes(1));
    }
}
