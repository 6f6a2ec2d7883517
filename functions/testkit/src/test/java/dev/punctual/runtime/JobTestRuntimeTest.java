package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.DeliveryMessage;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a team's job test sees through {@link JobTestRuntime}: the outcome line's words, the stage's rules. */
class JobTestRuntimeTest {

    private static final Instant START = Instant.parse("2027-03-01T00:00:00Z");
    private static final Instant NINE = Instant.parse("2027-03-01T09:00:00Z");

    private final List<Instant> ran = new ArrayList<>();

    private JobDefinition.Builder daily(String id) {
        return JobDefinition.builder(id).schedule("0 9 * * *", "UTC");
    }

    private JobDefinition counting(String id) {
        return daily(id)
                .job(s -> c -> {
                    ran.add(c.occurrence());
                    return JobResult.of("rows", 1);
                })
                .build();
    }

    @Test
    void deliver_twiceForOneOccurrence_passesOnce_thenSkipsAlreadyDone_andRunsTheJobOnce() {
        JobTestRuntime runtime = JobTestRuntime.dev(START, counting("report"));

        assertThat(runtime.deliver("report", NINE)).isEqualTo("PASS OK");
        assertThat(runtime.deliver("report", NINE)).isEqualTo("SKIP ALREADY_DONE");
        assertThat(ran).containsExactly(NINE);
        assertThat(runtime.now()).isEqualTo(NINE.plus(JobTestRuntime.DELIVERY_DELAY));
    }

    @Test
    void deliverAll_afterAnOutage_reportsEachCaughtUpOccurrence_thenTheDeliveredOne() {
        JobDefinition report = daily("report")
                .catchUp(dev.punctual.catchup.CatchUpPolicy.oldestFirst(2, Duration.ofDays(3)))
                .job(s -> c -> {
                    ran.add(c.occurrence());
                    return JobResult.empty();
                })
                .build();
        JobTestRuntime runtime = JobTestRuntime.dev(START, report);
        assertThat(runtime.deliver("report", NINE)).isEqualTo("PASS OK");

        var outcomes = runtime.deliverAll("report", NINE.plus(Duration.ofDays(3)));

        assertThat(outcomes.keySet())
                .containsExactly(
                        NINE.plus(Duration.ofDays(1)), NINE.plus(Duration.ofDays(2)), NINE.plus(Duration.ofDays(3)));
        assertThat(outcomes.values()).containsOnly("PASS OK");
        assertThat(ran).hasSize(4);
    }

    @Test
    void advanceTo_movesTheClockForAnyPayload_aManualRunThenRunsTheOccurrenceDueThen() {
        JobTestRuntime runtime = JobTestRuntime.dev(START, counting("report"));

        runtime.advanceTo(NINE.plus(Duration.ofHours(5)));
        InvocationResult result = runtime.invoke("{\"kind\":\"run\",\"job\":\"report\"}");

        assertThat(JobTestRuntime.outcomes(result)).isEqualTo("PASS OK");
        assertThat(ran).containsExactly(NINE);
        assertThat(runtime.now()).isEqualTo(NINE.plus(Duration.ofHours(5)));
    }

    @Test
    void theClock_neverMovesBack() {
        JobTestRuntime runtime = JobTestRuntime.dev(NINE, counting("report"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> runtime.advanceTo(START))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never moves back");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> runtime.advance(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        runtime.advance(Duration.ofMinutes(1));
        assertThat(runtime.now()).isEqualTo(NINE.plus(Duration.ofMinutes(1)));
    }

    @Test
    void deliver_aJobThatThrows_isAFailureWithItsReason_andTheLineIsRedacted() {
        JobTestRuntime runtime = JobTestRuntime.dev(
                START,
                daily("broken")
                        .job(s -> c -> {
                            throw new IllegalStateException("db login failed: password=hunter2-secret");
                        })
                        .build());

        assertThat(runtime.deliver("broken", NINE)).isEqualTo("FAIL JOB_ERROR");
        assertThat(String.join("\n", runtime.logLines()))
                .contains("db login failed")
                .doesNotContain("hunter2-secret");
    }

    @Test
    void deliver_aDestructiveJobInDev_isRefused_andNeverRuns() {
        JobTestRuntime runtime = JobTestRuntime.dev(
                START,
                daily("purge")
                        .destructive()
                        .job(s -> c -> {
                            ran.add(c.occurrence());
                            return JobResult.empty();
                        })
                        .build());

        assertThat(runtime.deliver("purge", NINE)).isEqualTo("SKIP DESTRUCTIVE_DISABLED");
        assertThat(ran).isEmpty();
    }

    @Test
    void deliver_aDeliveringJob_sendsOnlyWhereTheStageEnablesDelivery() {
        JobDefinition remind = daily("remind")
                .externalDelivery()
                .job(s -> c -> {
                    c.delivery().send(new DeliveryMessage("push", "member-1", "Soon", "Your room is ready"));
                    return JobResult.empty();
                })
                .build();
        JobTestRuntime dev = JobTestRuntime.dev(START, remind);
        JobTestRuntime prod = JobTestRuntime.withFlags(
                new StageFlags("prod", true, true, false, Duration.ofSeconds(5)), START, remind);

        assertThat(dev.deliver("remind", NINE)).isEqualTo("PASS OK");
        assertThat(prod.deliver("remind", NINE)).isEqualTo("PASS OK");
        assertThat(dev.sent()).isEmpty();
        assertThat(prod.sent()).extracting(DeliveryMessage::recipient).containsExactly("member-1");
    }

    private JobDefinition perTenant() {
        return daily("tenant-report")
                .perEntity(dev.punctual.job.EntityJob.parameters("locale"))
                .job(s -> c -> {
                    ran.add(c.occurrence());
                    return JobResult.of("tenant", c.entity().orElseThrow().id());
                })
                .build();
    }

    @Test
    void deliver_ofAnEntitysSchedule_runsItInTheEntitysZone_onceForTheEntity() {
        JobDefinition report = perTenant();
        JobTestRuntime runtime = JobTestRuntime.dev(START, report);
        var acme = dev.punctual.entity.EntitySchedule.of(report, "acme", null, "Europe/Paris", java.util.Map.of());
        var globex = dev.punctual.entity.EntitySchedule.of(report, "globex", null, "Europe/Paris", java.util.Map.of());
        Instant parisNine = Instant.parse("2027-03-01T08:00:00Z");

        assertThat(runtime.deliver(acme, parisNine)).isEqualTo("PASS OK");
        assertThat(runtime.deliver(acme, parisNine)).isEqualTo("SKIP ALREADY_DONE");
        assertThat(runtime.deliver(globex, parisNine)).isEqualTo("PASS OK");
        assertThat(ran).containsExactly(parisNine, parisNine);
    }

    @Test
    void deliver_ofAPerEntityJobWithoutAnEntity_saysHowToDeliverOneOfItsEntities() {
        JobTestRuntime runtime = JobTestRuntime.dev(START, perTenant());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> runtime.deliver("tenant-report", NINE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runs per entity")
                .hasMessageContaining("deliver(EntitySchedule.of(");
        assertThat(ran).isEmpty();
    }

    @Test
    void aCatalogsMaintenanceCondition_skipsItsJobsWhileATestSaysItFindsData_andTheyCatchUpAfter() {
        dev.punctual.job.JobTable members = dev.punctual.job.JobTable.builder("Members")
                .environmentVariable("MEMBERS_TABLE")
                .partitionKey("pk", dev.punctual.job.JobTable.AttributeType.STRING)
                .actions("dynamodb:Query")
                .build();
        java.util.List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.punctual.job.JobCatalog catalog = dev.punctual.job.JobCatalog.of(dev.punctual.job.JobDefinition.builder(
                                "quarter")
                        .schedule("*/15 * * * *", "UTC")
                        .catchUp(dev.punctual.catchup.CatchUpPolicy.oldestFirst(3, java.time.Duration.ofHours(1)))
                        .job(s -> c -> {
                            ran.add(c.occurrence().toString());
                            return dev.punctual.job.JobResult.empty();
                        })
                        .build())
                .withMaintenanceCondition(dev.punctual.job.MaintenanceCondition.whileItemsExist(
                        "synthetic", members, "SYNTHETIC", "synthetic data loaded"));
        java.time.Instant t0 = java.time.Instant.parse("2026-11-30T14:00:00Z");
        JobTestRuntime runtime = JobTestRuntime.dev(t0, catalog);

        String first = runtime.deliver("quarter", t0);
        runtime.conditions().findsData("synthetic");
        String held = runtime.deliver("quarter", t0.plusSeconds(900));
        runtime.conditions().findsNothing("synthetic");
        String after = runtime.deliver("quarter", t0.plusSeconds(1800));

        assertThat(first).isEqualTo("PASS OK");
        assertThat(held).isEqualTo("SKIP MAINTENANCE");
        assertThat(after).isEqualTo("PASS OK");
        assertThat(ran)
                .containsExactly(
                        t0.toString(),
                        t0.plusSeconds(900).toString(),
                        t0.plusSeconds(1800).toString());
    }
}
