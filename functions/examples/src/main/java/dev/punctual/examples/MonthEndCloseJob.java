package dev.punctual.examples;

import static dev.punctual.examples.DemoTable.key;
import static dev.punctual.examples.DemoTable.n;
import static dev.punctual.examples.DemoTable.s;

import dev.punctual.job.JobContext;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import dev.punctual.job.LongJob;
import java.time.YearMonth;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The month's close, one chunk per member (a long job, decision 0039): each member's statement for the
 * month ({@code statements / 2027-02#m-ada}) counts the member's reservations, written under the
 * occurrence's fence, so a chunk run again (a retry, a resumed occurrence) rewrites the same item and a
 * stale runner cannot overwrite a newer one. A member with a reservation still being edited is not
 * closed on a half-saved reservation: its chunk fails, and is tried again after the state machine's
 * back-off (the job's {@code maxAttempts}).
 */
public final class MonthEndCloseJob implements LongJob {

    static final String STATEMENTS = "statements";

    /** A reservation an agent is editing: not yet a fact the month can be closed on. */
    static final String EDITING = "EDITING";

    private final DemoTable table;

    public MonthEndCloseJob(DemoTable table) {
        this.table = table;
    }

    /** Every member, in id order: the keys are the member ids. */
    @Override
    public List<String> plan(JobContext context) {
        return table.all(DemoTable.MEMBERS).stream()
                .map(member -> DemoTable.text(member, "sk"))
                .sorted()
                .toList();
    }

    @Override
    public JobResult chunk(JobContext context, String member) {
        List<Map<String, AttributeValue>> reservations = table.all(DemoTable.RESERVATIONS).stream()
                .filter(r -> member.equals(DemoTable.text(r, "member")))
                .toList();
        for (Map<String, AttributeValue> reservation : reservations) {
            if (EDITING.equals(DemoTable.text(reservation, "status"))) {
                throw new IllegalStateException("reservation " + DemoTable.text(reservation, "sk") + " of " + member
                        + " is being edited; the close waits for the edit to be saved");
            }
        }
        String month = month(context).toString();
        Map<String, AttributeValue> item = new HashMap<>(key(STATEMENTS, month + "#" + member));
        item.put("reservations", n(reservations.size()));
        item.put("occurrence", s(context.occurrence().toString()));
        item.put("fence", n(context.fence()));
        table.dynamo()
                .putItem(b -> b.tableName(table.table())
                        .item(item)
                        .conditionExpression(DemoTable.FENCE_GUARD)
                        .expressionAttributeValues(Map.of(":fence", n(context.fence()))));
        return JobResult.of("member", member, "reservations", reservations.size());
    }

    @Override
    public JobResult finish(JobContext context, ChunkTally tally) {
        return JobResult.of("month", month(context).toString(), "statements", tally.succeeded());
    }

    /** One statement per member, written or rewritten. */
    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.changes(table.all(DemoTable.MEMBERS).size()));
    }

    /** The month being closed: the occurrence's own, read in the job's zone (the last day's evening). */
    private static YearMonth month(JobContext context) {
        return YearMonth.from(context.localOccurrence());
    }
}
