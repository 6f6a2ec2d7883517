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
 * The fortnightly member digest: one report item per occurrence, keyed {@code digest:} and the local date,
 * so running an occurrence twice rewrites the same item. Its schedule is an RRULE (every other Monday), which
 * no cron can say (decision 0049).
 */
public final class MemberDigestJob implements Job {

    private final DemoTable table;

    public MemberDigestJob(DemoTable table) {
        this.table = table;
    }

    @Override
    public JobResult run(JobContext context) {
        LocalDate day = context.localOccurrence().toLocalDate();
        int members = table.all(DemoTable.MEMBERS).size();
        Map<String, AttributeValue> item = new HashMap<>(key(DemoTable.REPORTS, "digest:" + day));
        item.put("members", n(members));
        item.put("occurrence", s(context.occurrence().toString()));
        item.put("fence", n(context.fence()));
        table.dynamo()
                .putItem(b -> b.tableName(table.table())
                        .item(item)
                        .conditionExpression(DemoTable.FENCE_GUARD)
                        .expressionAttributeValues(Map.of(":fence", n(context.fence()))));
        return JobResult.of("digest", day.toString(), "members", members);
    }

    /** One digest item per occurrence, written or rewritten. */
    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.changes(1));
    }
}
