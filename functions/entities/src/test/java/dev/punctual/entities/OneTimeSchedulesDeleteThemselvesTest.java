package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.ActionAfterCompletion;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;

/**
 * Decision 0043: a one-time {@code at()} entity schedule is created with ActionAfterCompletion DELETE, so
 * the scheduler deletes it after its delivery; a recurring one with NONE. Checked on the wire (the JSON
 * body the SDK sends to moto's Scheduler API) and read back from moto.
 */
class OneTimeSchedulesDeleteThemselvesTest {

    private static final JobDefinition REPORT = JobDefinition.builder("report")
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters())
            .job(services -> context -> JobResult.empty())
            .build();
    private static final JobDefinition SPREAD = JobDefinition.builder("spread")
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters().spreadOver(Duration.ofMinutes(10)))
            .job(services -> context -> JobResult.empty())
            .build();
    private static final JobCatalog CATALOG = JobCatalog.of(REPORT, SPREAD);

    /** Years ahead, so the put's "an occurrence after now" check never depends on when the test runs. */
    private static final String ONCE = "at(2031-06-01T09:00:00)";

    private final BodyRecorder bodies = new BodyRecorder();
    private SchedulerClient raw;
    private SchedulerClient recorded;
    private EntityTargets targets;
    private EntitySchedules schedules;

    @BeforeEach
    void groupOfItsOwn() {
        raw = SchedulerEmulator.client();
        recorded = SchedulerEmulator.client(bodies);
        targets = SchedulerEmulator.newGroup(raw, "once");
        schedules =
                new EntitySchedules(recorded, CATALOG, targets, LedgerEmulator.tombstones(LedgerEmulator.freshTable()));
    }

    @AfterEach
    void close() {
        raw.close();
        recorded.close();
    }

    @Test
    void anAtSchedule_isCreatedWithActionAfterCompletionDelete_onTheWireAndReadBack() {
        assertThat(schedules.put(EntitySchedule.of(REPORT, "acme", ONCE, "Europe/Paris", Map.of())))
                .isEqualTo(PutResult.CREATED);

        assertThat(bodies.of("CreateSchedule"))
                .singleElement()
                .asString()
                .contains("\"ActionAfterCompletion\":\"DELETE\"");
        assertThat(afterCompletion("report.acme")).isEqualTo(ActionAfterCompletion.DELETE);
    }

    @Test
    void aSpreadAtSchedule_isStillOneDelivery_andDeletesItself() {
        schedules.put(EntitySchedule.of(SPREAD, "acme", ONCE, "UTC", Map.of()));

        assertThat(afterCompletion("spread.acme")).isEqualTo(ActionAfterCompletion.DELETE);
    }

    @Test
    void cronAndRateSchedules_areCreatedWithActionAfterCompletionNone() {
        schedules.put(EntitySchedule.of(REPORT, "unix", "30 7 * * 1-5", "Asia/Tokyo", Map.of()));
        schedules.put(EntitySchedule.of(REPORT, "aws", "cron(0 6 * * ? *)", "UTC", Map.of()));
        schedules.put(EntitySchedule.of(REPORT, "rate", "rate(1 hour)", "UTC", Map.of()));
        schedules.put(EntitySchedule.of(REPORT, "default", null, "UTC", Map.of()));

        assertThat(bodies.of("CreateSchedule"))
                .hasSize(4)
                .allSatisfy(body -> assertThat(body)
                        .contains("\"ActionAfterCompletion\":\"NONE\"")
                        .doesNotContain("DELETE"));
        for (String entity : List.of("unix", "aws", "rate", "default")) {
            assertThat(afterCompletion("report." + entity)).as(entity).isEqualTo(ActionAfterCompletion.NONE);
        }
    }

    @Test
    void anRruleWithoutDtstart_isRefusedBeforeAnythingIsSent_soItCarriesNoActionAtAll() {
        assertThatThrownBy(() -> schedules.put(
                        EntitySchedule.of(REPORT, "rr", "RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "UTC", Map.of())))
                .isInstanceOf(EntityScheduleException.class);

        assertThat(bodies.of("CreateSchedule")).isEmpty();
        assertThat(bodies.of("UpdateSchedule")).isEmpty();
    }

    /** Decision 0049: an RRULE is deployed as its containing cron, which keeps firing: it never deletes itself. */
    @Test
    void anRrule_isCreatedAsItsContainingCron_withActionAfterCompletionNone_andReadsBackUnchanged() {
        EntitySchedule daily =
                EntitySchedule.of(REPORT, "rr", "DTSTART:20270104T090000 RRULE:FREQ=DAILY", "Europe/Paris", Map.of());

        assertThat(schedules.put(daily)).isEqualTo(PutResult.CREATED);

        assertThat(bodies.of("CreateSchedule"))
                .singleElement()
                .asString()
                .contains("\"ScheduleExpression\":\"cron(0 9 * * ? 2027-2199)\"")
                .contains("\"ScheduleExpressionTimezone\":\"Europe/Paris\"")
                .contains("\"ActionAfterCompletion\":\"NONE\"");
        assertThat(afterCompletion("report.rr")).isEqualTo(ActionAfterCompletion.NONE);
        assertThat(schedules.put(daily)).isEqualTo(PutResult.UNCHANGED);
    }

    @Test
    void aCronChangedToAnAt_isUpdatedToDelete_andBackToACron_toNone_eachThenUnchanged() {
        schedules.put(EntitySchedule.of(REPORT, "acme", null, "UTC", Map.of()));

        assertThat(schedules.put(EntitySchedule.of(REPORT, "acme", ONCE, "UTC", Map.of())))
                .isEqualTo(PutResult.UPDATED);
        assertThat(bodies.of("UpdateSchedule"))
                .singleElement()
                .asString()
                .contains("\"ActionAfterCompletion\":\"DELETE\"");
        assertThat(afterCompletion("report.acme")).isEqualTo(ActionAfterCompletion.DELETE);
        assertThat(schedules.put(EntitySchedule.of(REPORT, "acme", ONCE, "UTC", Map.of())))
                .as("read back as sent, so the same put again writes nothing")
                .isEqualTo(PutResult.UNCHANGED);

        assertThat(schedules.put(EntitySchedule.of(REPORT, "acme", null, "UTC", Map.of())))
                .isEqualTo(PutResult.UPDATED);
        assertThat(afterCompletion("report.acme")).isEqualTo(ActionAfterCompletion.NONE);
        assertThat(schedules.put(EntitySchedule.of(REPORT, "acme", null, "UTC", Map.of())))
                .isEqualTo(PutResult.UNCHANGED);
    }

    @Test
    void anAtCreatedBeforeDecision0043_withoutTheField_isUpdatedToDeleteByItsNextPut() {
        EntitySchedule once = EntitySchedule.of(REPORT, "old", ONCE, "UTC", Map.of());
        DeployedForm form = DeployedForm.of(once, targets, targets.of("report", "default"));
        // As the previous release created it: every field the same, no ActionAfterCompletion.
        raw.createSchedule(form.createRequest(targets.group(), "report.old").toBuilder()
                .actionAfterCompletion((String) null)
                .build());
        assertThat(raw.getSchedule(r -> r.groupName(targets.group()).name("report.old"))
                        .actionAfterCompletion())
                .isNull();

        assertThat(schedules.put(once)).isEqualTo(PutResult.UPDATED);

        assertThat(afterCompletion("report.old")).isEqualTo(ActionAfterCompletion.DELETE);
        assertThat(raw.getSchedule(r -> r.groupName(targets.group()).name("report.old"))
                        .flexibleTimeWindow()
                        .mode())
                .isEqualTo(FlexibleTimeWindowMode.OFF);
    }

    @Test
    void aRecurringScheduleCreatedBeforeDecision0043_withoutTheField_isUnchanged() {
        EntitySchedule daily = EntitySchedule.of(REPORT, "old", null, "UTC", Map.of());
        DeployedForm form = DeployedForm.of(daily, targets, targets.of("report", "default"));
        raw.createSchedule(form.createRequest(targets.group(), "report.old").toBuilder()
                .actionAfterCompletion((String) null)
                .build());

        assertThat(schedules.put(daily)).isEqualTo(PutResult.UNCHANGED);
        assertThat(bodies.of("UpdateSchedule")).isEmpty();
    }

    private ActionAfterCompletion afterCompletion(String name) {
        return raw.getSchedule(r -> r.groupName(targets.group()).name(name)).actionAfterCompletion();
    }

    /** The JSON bodies the client sends, by operation: what moto (or AWS) receives. */
    private static final class BodyRecorder implements ExecutionInterceptor {
        private final List<String[]> sent = new CopyOnWriteArrayList<>();

        @Override
        public void afterMarshalling(Context.AfterMarshalling context, ExecutionAttributes attributes) {
            String body = context.requestBody()
                    .map(requestBody -> {
                        try (InputStream in =
                                requestBody.contentStreamProvider().newStream()) {
                            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .orElse("");
            sent.add(new String[] {attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), body});
        }

        List<String> of(String operation) {
            return sent.stream()
                    .filter(call -> call[0].equals(operation))
                    .map(call -> call[1])
                    .toList();
        }
    }
}
