package dev.punctual.examples;

import dev.punctual.job.DeliveryMessage;
import dev.punctual.job.DeliveryReceipt;
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
 * Sends a push reminder for every reservation that starts within the next day. Outside prod the
 * delivery port only records what it would have sent; the job's result says which happened.
 */
public final class ReminderJob implements Job {

    private final DemoTable table;

    public ReminderJob(DemoTable table) {
        this.table = table;
    }

    @Override
    public JobResult run(JobContext context) {
        int sent = 0;
        int suppressed = 0;
        for (Map<String, AttributeValue> r : startingWithinADay(context)) {
            DeliveryReceipt receipt = context.delivery()
                    .send(new DeliveryMessage(
                            "push",
                            DemoTable.text(r, "member"),
                            "Your reservation starts soon",
                            "Reservation " + DemoTable.text(r, "sk") + " starts within a day."));
            if (receipt instanceof DeliveryReceipt.Sent) {
                sent++;
            } else {
                suppressed++;
            }
        }
        return JobResult.of("sent", sent, "suppressed", suppressed);
    }

    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.deliveries(startingWithinADay(context).size()));
    }

    /** Held reservations starting within a day of the occurrence: one reminder each. */
    private List<Map<String, AttributeValue>> startingWithinADay(JobContext context) {
        long from = context.occurrence().toEpochMilli();
        long until = context.occurrence().plus(Duration.ofDays(1)).toEpochMilli();
        return table.all(DemoTable.RESERVATIONS).stream()
                .filter(r -> "HELD".equals(DemoTable.text(r, "status")))
                .filter(r -> DemoTable.number(r, "startsAt") >= from && DemoTable.number(r, "startsAt") < until)
                .toList();
    }
}
