package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.entities.ReconcileResult.Kind;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.scheduler.SchedulerClient;

/**
 * An import the scheduler throttles, through {@link ThrottlingStandIn} in front of moto: the client
 * {@link EntitySchedules#clientBuilder} builds backs off and retries, so every schedule is created once
 * and the reconcile reports nothing but creates.
 */
class ThrottledReconcileTest {

    private static final JobDefinition REPORT = JobDefinition.builder("report")
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters("locale"))
            .job(services -> context -> JobResult.empty())
            .build();

    @Test
    void aThrottledImportBacksOffAndRetries_creatingEverySchedule_eachOnce() throws Exception {
        int n = 30;
        CallCounter calls = new CallCounter();
        try (ThrottlingStandIn standIn = new ThrottlingStandIn(SchedulerEmulator.endpoint(), 3);
                SchedulerClient direct = SchedulerEmulator.client();
                SchedulerClient throttled = EntitySchedules.clientBuilder(SchedulerEmulator.REGION)
                        .endpointOverride(standIn.endpoint())
                        .credentialsProvider(
                                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                        .overrideConfiguration(c -> c.addExecutionInterceptor(calls))
                        .build()) {
            EntityTargets targets = SchedulerEmulator.newGroup(direct, "th");
            List<EntitySchedule> file = IntStream.range(0, n)
                    .mapToObj(i -> EntitySchedule.of(REPORT, "tenant-" + i, null, "Asia/Seoul", Map.of("locale", "ko")))
                    .toList();

            ReconcileResult result = new EntityReconcile(
                            throttled,
                            JobCatalog.of(REPORT),
                            targets,
                            LedgerEmulator.tombstones(),
                            Pacer.perSecond(10_000),
                            4)
                    .reconcile("report", file, false, false, c -> {});

            assertThat(result.counts()).containsEntry(Kind.CREATE, n);
            assertThat(standIn.throttled()).isEqualTo(n / 3);
            // Each put called CreateSchedule once; the SDK's retries are what reached the stand-in twice.
            assertThat(calls.of("CreateSchedule")).isEqualTo(n);
            assertThat(standIn.createRequests()).isEqualTo(n + standIn.throttled());
            int inGroup = 0;
            for (var page : direct.listSchedulesPaginator(r -> r.groupName(targets.group()))) {
                inGroup += page.schedules().size();
            }
            assertThat(inGroup).isEqualTo(n);
        }
    }
}
