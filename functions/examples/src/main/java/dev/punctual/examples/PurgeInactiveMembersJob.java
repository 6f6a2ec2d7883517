package dev.punctual.examples;

import dev.punctual.job.Job;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Deletes members inactive for a year. Destructive: refused in every stage that does not allow
 * destructive jobs, and verified one-off by hand before it is enabled (docs/runbook.md).
 */
public final class PurgeInactiveMembersJob implements Job {

    public static final Duration INACTIVE_FOR = Duration.ofDays(365);

    /** Delete only a member still inactive at the time of the delete, not one who came back meanwhile. */
    static final String STILL_INACTIVE = "lastActiveAt < :cutoff";

    private final DemoTable table;

    public PurgeInactiveMembersJob(DemoTable table) {
        this.table = table;
    }

    @Override
    public JobResult run(JobContext context) {
        long cutoff = cutoff(context);
        int deleted = 0;
        for (Map<String, AttributeValue> member : inactive(cutoff)) {
            deleted += delete(member, cutoff) ? 1 : 0;
        }
        return JobResult.of("deleted", deleted);
    }

    /** The members a run would delete, counted: what an operator checks before enabling destructive jobs. */
    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.deletions(inactive(cutoff(context)).size()));
    }

    private static long cutoff(JobContext context) {
        return context.occurrence().minus(INACTIVE_FOR).toEpochMilli();
    }

    private List<Map<String, AttributeValue>> inactive(long cutoff) {
        return table.all(DemoTable.MEMBERS).stream()
                .filter(member -> DemoTable.number(member, "lastActiveAt") < cutoff)
                .toList();
    }

    private boolean delete(Map<String, AttributeValue> member, long cutoff) {
        return DemoTable.applied(() -> table.dynamo()
                .deleteItem(b -> b.tableName(table.table())
                        .key(Map.of("pk", member.get("pk"), "sk", member.get("sk")))
                        .conditionExpression(STILL_INACTIVE)
                        .expressionAttributeValues(Map.of(":cutoff", DemoTable.n(cutoff)))));
    }
}
