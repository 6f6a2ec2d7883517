package dev.punctual.handler;

import static dev.punctual.examples.DemoTable.key;
import static dev.punctual.examples.DemoTable.n;
import static dev.punctual.examples.DemoTable.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.examples.DemoTable;
import dev.punctual.examples.ExampleCatalog;
import dev.punctual.job.DeliveryMessage;
import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.Job;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobLease;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.Trigger;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The example jobs' dry-run counts against their real table on the emulator: each preview predicts what
 * the run then does, writes nothing and sends nothing.
 */
class ExampleJobPreviewTest {

    private static final Instant AT = Instant.parse("2027-02-01T09:00:00Z");

    private EmulatorStage stage;
    private JobCatalog catalog;
    private final List<DeliveryMessage> sent = new ArrayList<>();

    @BeforeEach
    void seedTheDomainTable() {
        stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), AT);
        catalog = stage.runtime.services().catalog();
        reservation("r-due", "HELD", AT.minus(Duration.ofHours(1)), AT.plus(Duration.ofHours(2)));
        reservation("r-later", "HELD", AT.plus(Duration.ofHours(1)), AT.plus(Duration.ofDays(3)));
        reservation("r-expired", "EXPIRED", AT.minus(Duration.ofDays(1)), AT.minus(Duration.ofHours(5)));
        member("m-gone", AT.minus(Duration.ofDays(400)));
        member("m-active", AT.minus(Duration.ofDays(10)));
    }

    @Test
    void expireReservations_previewCountsTheDueHolds_andTheRunExpiresThatMany() throws Exception {
        assertPreviewPredictsRun("expire-reservations", new JobPreview(1, 0, 0), "expired");
    }

    @Test
    void refundKeys_previewCountsTheExpired_andTheRunRefundsThatMany() throws Exception {
        assertPreviewPredictsRun("refund-keys", new JobPreview(1, 0, 0), "refunded");
    }

    @Test
    void purgeInactiveMembers_previewCountsDeletionTargets_andTheRunDeletesThatMany() throws Exception {
        assertPreviewPredictsRun("purge-inactive-members", new JobPreview(0, 0, 1), "deleted");
    }

    @Test
    void sendReminders_previewCountsMessages_sendsNone_andTheRunSendsThatMany() throws Exception {
        Job job = job("send-reminders");

        JobPreview preview = job.preview(context("send-reminders")).orElseThrow();
        assertThat(sent).isEmpty();
        JobResult result = job.run(context("send-reminders"));

        assertThat(preview).isEqualTo(new JobPreview(0, 1, 0));
        assertThat(sent).hasSize((int) preview.deliveries());
        assertThat(result.summary()).containsEntry("sent", sent.size());
    }

    @Test
    void dailyReport_previewCountsItsOneReportItem() throws Exception {
        assertThat(job("daily-report").preview(context("daily-report"))).contains(JobPreview.changes(1));
    }

    @Test
    void everyPreview_leavesTheTableAsItWas() throws Exception {
        List<Map<String, AttributeValue>> before = scan();

        for (JobDefinition definition : catalog.jobs()) {
            job(definition.id()).preview(context(definition.id()));
        }

        assertThat(scan()).containsExactlyInAnyOrderElementsOf(before);
        assertThat(sent).isEmpty();
    }

    private void assertPreviewPredictsRun(String id, JobPreview expected, String resultField) throws Exception {
        Job job = job(id);

        JobPreview preview = job.preview(context(id)).orElseThrow();
        JobResult result = job.run(context(id));

        assertThat(preview).isEqualTo(expected);
        long previewed = preview.changes() + preview.deletions();
        assertThat(((Number) result.summary().get(resultField)).longValue()).isEqualTo(previewed);
    }

    private Job job(String id) {
        return catalog.require(id).factory().apply(stage.runtime.services().jobServices());
    }

    private JobContext context(String id) {
        JobDefinition definition = catalog.require(id);
        StructuredLog log = new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard());
        return new JobContext(
                id,
                AT,
                AT.atZone(definition.schedule().zone()),
                Trigger.MANUAL,
                1,
                JobLease.until(AT.plus(Duration.ofMinutes(5))),
                StageFlags.defaultsFor("dev"),
                new JobContext.JobLog(log, id, AT),
                message -> {
                    sent.add(message);
                    return new DeliveryReceipt.Sent(message.channel(), message.recipient());
                },
                stage.clock);
    }

    private void reservation(String id, String status, Instant holdUntil, Instant startsAt) {
        Map<String, AttributeValue> item = new HashMap<>(key(DemoTable.RESERVATIONS, id));
        item.put("status", s(status));
        item.put("holdUntil", n(holdUntil.toEpochMilli()));
        item.put("startsAt", n(startsAt.toEpochMilli()));
        item.put("member", s("m-active"));
        put(item);
    }

    private void member(String id, Instant lastActiveAt) {
        Map<String, AttributeValue> item = new HashMap<>(key(DemoTable.MEMBERS, id));
        item.put("lastActiveAt", n(lastActiveAt.toEpochMilli()));
        put(item);
    }

    private void put(Map<String, AttributeValue> item) {
        stage.clients
                .dynamo()
                .putItem(
                        b -> b.tableName(stage.table(ExampleCatalog.DEMO_TABLE)).item(item));
    }

    private List<Map<String, AttributeValue>> scan() {
        return stage.clients
                .dynamo()
                .scan(b -> b.tableName(stage.table(ExampleCatalog.DEMO_TABLE)).consistentRead(true))
                .items();
    }
}
