package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.json.Json;
import dev.punctual.runtime.ScheduledPayload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;
import software.amazon.awssdk.services.scheduler.model.UpdateScheduleRequest;

/**
 * A spread job's entity schedules against moto's EventBridge Scheduler API (decision 0030): the deployed
 * expression is the entity's own moved on by its offset, the input carries the nominal expression and
 * the offset, and a put compares both.
 */
class SpreadEntitySchedulesTest {

    private static final String FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:punctual-t-default:live";
    private static final String ROLE = "arn:aws:iam::123456789012:role/punctual-t-scheduler";

    private static final JobDefinition REPORT = report(Duration.ofMinutes(10));

    private static final JobDefinition PLAIN = JobDefinition.builder("plain-report")
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters())
            .job(services -> context -> JobResult.empty())
            .build();

    private static final AtomicInteger GROUPS = new AtomicInteger();

    private final CallCounter calls = new CallCounter();
    private final List<SchedulerClient> clients = new ArrayList<>();
    private SchedulerClient raw;
    private EntityTargets targets;
    private EntitySchedules schedules;

    private static JobDefinition report(Duration window) {
        return JobDefinition.builder("tenant-report")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters("locale").spreadOver(window))
                .job(services -> context -> JobResult.empty())
                .build();
    }

    @BeforeEach
    void oneGroupPerTest() {
        raw = open(SchedulerEmulator.client());
        String group = EntityScheduleName.group("s" + GROUPS.incrementAndGet());
        raw.createScheduleGroup(r -> r.name(group));
        targets = EntityTargets.builder(group)
                .pool("default", FUNCTION, ROLE)
                .retries(3, Duration.ofHours(1))
                .build();
        schedules = client(JobCatalog.of(REPORT, PLAIN));
    }

    @AfterEach
    void closeClients() {
        clients.forEach(SchedulerClient::close);
    }

    @Test
    void aSpreadEntity_isDeployedItsOffsetAfterItsExpression_andItsInputCarriesTheNominalOneAndTheOffset()
            throws Exception {
        // SHA-256 puts acme at minute 9 of tenant-report's 10 (SpreadTest pins it).
        EntitySchedule acme = EntitySchedule.of(REPORT, "acme", null, "Europe/Paris", Map.of("locale", "fr"));

        assertThat(schedules.put(acme)).isEqualTo(PutResult.CREATED);

        GetScheduleResponse deployed = deployed("tenant-report.acme");
        assertThat(deployed.scheduleExpression()).isEqualTo("cron(9 9 * * ? *)");
        assertThat(deployed.scheduleExpressionTimezone()).isEqualTo("Europe/Paris");
        Map<?, ?> input = (Map<?, ?>) Json.read(deployed.target().input());
        assertThat(input.get(ScheduledPayload.SCHEDULE)).isEqualTo("0 9 * * *");
        assertThat(input.get(ScheduledPayload.OFFSET_MINUTES)).isEqualTo(9L);
        assertThat(schedules.get("tenant-report", "acme")).contains(acme);
        assertThat(acme.offsetMinutes()).isEqualTo(9);
    }

    @Test
    void aSecondPutOfASpreadEntity_isUnchanged_andWritesNothing() {
        EntitySchedule acme = EntitySchedule.of(REPORT, "acme", null, "Europe/Paris", Map.of());
        schedules.put(acme);
        calls.reset();

        assertThat(schedules.put(acme)).isEqualTo(PutResult.UNCHANGED);

        assertThat(calls.writes()).isZero();
    }

    @Test
    void anOffsetThatWouldCarryIntoAnotherHour_isLowered_soTheDeployedFiringsStayExact() {
        // beta's place is minute 7; 09:55 + 7 would be 10:02, an hour the expression does not have.
        EntitySchedule beta = EntitySchedule.of(REPORT, "beta", "55 9 * * 1-5", "UTC", Map.of());

        schedules.put(beta);

        assertThat(beta.offsetMinutes()).isEqualTo(4);
        assertThat(deployed("tenant-report.beta").scheduleExpression()).isEqualTo("cron(59 9 ? * MON-FRI *)");
    }

    @Test
    void aRateAndAnAt_areShiftedToo() {
        schedules.put(EntitySchedule.of(REPORT, "gamma", "rate(1 hour)", "Asia/Tokyo", Map.of()));
        schedules.put(EntitySchedule.of(REPORT, "omega", "at(2027-06-01T23:58:00)", "Asia/Tokyo", Map.of()));

        assertThat(deployed("tenant-report.gamma").scheduleExpression()).isEqualTo("cron(7 * * * ? *)");
        assertThat(deployed("tenant-report.gamma").scheduleExpressionTimezone()).isEqualTo("UTC");
        assertThat(deployed("tenant-report.omega").scheduleExpression()).isEqualTo("at(2027-06-02T00:03:00)");
    }

    @Test
    void aJobWithoutASpread_deploysItsExpressionAsItIs_withNoOffsetInTheInput() throws Exception {
        schedules.put(EntitySchedule.of(PLAIN, "acme", null, "UTC", Map.of()));

        GetScheduleResponse deployed = deployed("plain-report.acme");
        assertThat(deployed.scheduleExpression()).isEqualTo("cron(0 9 * * ? *)");
        assertThat(((Map<?, ?>) Json.read(deployed.target().input())).containsKey(ScheduledPayload.OFFSET_MINUTES))
                .isFalse();
    }

    @Test
    void aWindowChangedSinceThePut_isReadBackAtTheOffsetItFiresAt_andTheNextPutMovesItToTheNewOne() {
        schedules.put(EntitySchedule.of(REPORT, "acme", null, "UTC", Map.of()));
        JobDefinition wider = report(Duration.ofMinutes(30));
        EntitySchedules afterTheChange = client(JobCatalog.of(wider));

        assertThat(afterTheChange.get("tenant-report", "acme"))
                .hasValueSatisfying(s -> assertThat(s.offsetMinutes()).isEqualTo(9));

        assertThat(afterTheChange.put(EntitySchedule.of(wider, "acme", null, "UTC", Map.of())))
                .isEqualTo(PutResult.UPDATED);
        assertThat(deployed("tenant-report.acme").scheduleExpression()).isEqualTo("cron(19 9 * * ? *)");
        assertThat(afterTheChange.get("tenant-report", "acme"))
                .hasValueSatisfying(s -> assertThat(s.offsetMinutes()).isEqualTo(19));
    }

    @Test
    void anOffsetEditedByHandIntoOneTheExpressionCannotShiftBy_isReportedByGetNamingIt_andReplacedByThePut()
            throws Exception {
        EntitySchedule beta = EntitySchedule.of(REPORT, "beta", "55 9 * * 1-5", "UTC", Map.of());
        schedules.put(beta);
        GetScheduleResponse now = deployed("tenant-report.beta");
        Map<String, Object> input = new LinkedHashMap<>();
        ((Map<?, ?>) Json.read(now.target().input())).forEach((key, value) -> input.put((String) key, value));
        input.put(ScheduledPayload.OFFSET_MINUTES, 30);
        raw.updateSchedule(UpdateScheduleRequest.builder()
                .groupName(targets.group())
                .name("tenant-report.beta")
                .scheduleExpression(now.scheduleExpression())
                .scheduleExpressionTimezone(now.scheduleExpressionTimezone())
                .state(now.state())
                .flexibleTimeWindow(now.flexibleTimeWindow())
                .target(now.target().toBuilder().input(Json.write(input)).build())
                .build());

        assertThatThrownBy(() -> schedules.get("tenant-report", "beta"))
                .isInstanceOfSatisfying(
                        UnreadableScheduleException.class,
                        e -> assertThat(e.field()).isEqualTo("Target.Input.offset_minutes"))
                .hasMessageContaining("accepted: an offset up to 4 for this schedule");

        assertThat(schedules.put(beta)).isEqualTo(PutResult.UPDATED);
        assertThat(schedules.get("tenant-report", "beta")).contains(beta);
    }

    private EntitySchedules client(JobCatalog catalog) {
        return new EntitySchedules(
                open(SchedulerEmulator.client(calls)), catalog, targets, LedgerEmulator.tombstones());
    }

    private GetScheduleResponse deployed(String name) {
        return raw.getSchedule(r -> r.groupName(targets.group()).name(name));
    }

    private SchedulerClient open(SchedulerClient client) {
        clients.add(client);
        return client;
    }
}
