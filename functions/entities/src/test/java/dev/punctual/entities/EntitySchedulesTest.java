package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.json.Json;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.EntityDeleted;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.SchedulerClientBuilder;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;
import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;
import software.amazon.awssdk.services.scheduler.model.ScheduleState;
import software.amazon.awssdk.services.scheduler.model.UpdateScheduleRequest;

/**
 * The entity client against moto's EventBridge Scheduler API: what each call writes, and that it writes
 * nothing it need not. Each test has a schedule group of its own, created here as the stage creates it.
 */
class EntitySchedulesTest {

    private static final String FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:punctual-t-default:live";
    private static final String ROLE = "arn:aws:iam::123456789012:role/punctual-t-scheduler";
    private static final String DEAD_LETTERS = "arn:aws:sqs:us-east-1:123456789012:punctual-t-scheduler-dlq";

    private static final JobDefinition REMINDER = JobDefinition.builder("reminder")
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters("locale"))
            .job(services -> context -> JobResult.empty())
            .build();
    /** Its id starts with the other's: a listing of "reminder" must still never show its schedules. */
    private static final JobDefinition DIGEST = JobDefinition.builder("reminder-digest")
            .schedule("0 7 * * *", "UTC")
            .perEntity(EntityJob.parameters())
            .job(services -> context -> JobResult.empty())
            .build();

    private static final JobDefinition NIGHTLY = JobDefinition.builder("nightly")
            .schedule("0 2 * * *", "UTC")
            .job(services -> context -> JobResult.empty())
            .build();
    private static final JobDefinition EXPORT = JobDefinition.builder("export")
            .schedule("0 3 * * *", "UTC")
            .pool(new FunctionPool("bulk", 2048, Duration.ofMinutes(15)))
            .perEntity(EntityJob.parameters())
            .job(services -> context -> JobResult.empty())
            .build();

    private static final JobCatalog CATALOG = JobCatalog.of(REMINDER, DIGEST, NIGHTLY, EXPORT);

    private static final AtomicInteger GROUPS = new AtomicInteger();

    private final CallCounter calls = new CallCounter();
    private final List<SchedulerClient> clients = new ArrayList<>();
    private SchedulerClient raw;
    private EntityTargets targets;
    private EntitySchedules schedules;
    private String ledgerTable;
    private EntityTombstones tombstones;
    private RunLedger ledger;

    @BeforeEach
    void oneGroupPerTest() {
        ledgerTable = LedgerEmulator.freshTable();
        tombstones = LedgerEmulator.tombstones(ledgerTable);
        ledger = LedgerEmulator.ledger(ledgerTable);
        raw = open(SchedulerEmulator.client());
        String group = EntityScheduleName.group("t" + GROUPS.incrementAndGet());
        raw.createScheduleGroup(r -> r.name(group));
        targets = EntityTargets.builder(group)
                .pool("default", FUNCTION, ROLE)
                .deadLetterQueue(DEAD_LETTERS)
                .retries(3, Duration.ofHours(1))
                .build();
        schedules = new EntitySchedules(open(SchedulerEmulator.client(calls)), CATALOG, targets, tombstones);
    }

    @AfterEach
    void closeClients() {
        clients.forEach(SchedulerClient::close);
    }

    @Test
    void aPutThatWrites_notesTheEntitysNextOccurrenceForTheDueWatch_andAChangedPutMovesTheNote() {
        // One time, years ahead: its next occurrence does not depend on when the test runs.
        EntitySchedule once = EntitySchedule.of(REMINDER, "acme", "at(2031-06-01T09:00:00)", "Europe/Paris", Map.of());
        java.time.Instant nine = java.time.Instant.parse("2031-06-01T07:00:00Z");
        var due = new dev.punctual.ledger.dynamodb.DynamoDbDueIndex(LedgerEmulator.dynamo(), ledgerTable);

        assertThat(schedules.put(once)).isEqualTo(PutResult.CREATED);

        assertThat(due.expectedBetween(nine.minusSeconds(1), nine))
                .extracting(e -> e.ledgerId() + "@" + e.occurrence())
                .containsExactly("reminder:acme@" + nine);

        // Moved to a daily schedule: the note moves to its next 09:00, within a day from now.
        assertThat(schedules.put(EntitySchedule.of(REMINDER, "acme", null, "Europe/Paris", Map.of())))
                .isEqualTo(PutResult.UPDATED);
        java.time.Instant now = java.time.Instant.now();
        assertThat(due.expectedBetween(now.minusSeconds(60), now.plusSeconds(86_400 + 60)))
                .extracting(e -> e.ledgerId())
                .containsExactly("reminder:acme");
        assertThat(due.expectedBetween(nine.minusSeconds(1), nine))
                .as("the one-time note is gone")
                .isEmpty();
    }

    @Test
    void aFirstPut_createsTheSchedule_asTheStageDeploysOne() throws Exception {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of("locale", "fr"));

        assertThat(schedules.put(desired)).isEqualTo(PutResult.CREATED);

        GetScheduleResponse deployed = deployed("reminder.acme");
        assertThat(deployed.scheduleExpression()).isEqualTo("cron(0 9 * * ? *)");
        assertThat(deployed.scheduleExpressionTimezone()).isEqualTo("Europe/Paris");
        assertThat(deployed.state()).isEqualTo(ScheduleState.ENABLED);
        assertThat(deployed.flexibleTimeWindow().mode()).isEqualTo(FlexibleTimeWindowMode.OFF);
        assertThat(deployed.description()).isEqualTo("Punctual entity schedule: reminder for acme");
        assertThat(deployed.target().arn()).isEqualTo(FUNCTION);
        assertThat(deployed.target().roleArn()).isEqualTo(ROLE);
        assertThat(deployed.target().retryPolicy().maximumRetryAttempts()).isEqualTo(3);
        assertThat(deployed.target().retryPolicy().maximumEventAgeInSeconds()).isEqualTo(3600);
        assertThat(deployed.target().deadLetterConfig().arn()).isEqualTo(DEAD_LETTERS);
        assertThat(Json.read(deployed.target().input()))
                .isEqualTo(Json.read(Json.write(ScheduledPayload.forEntity(desired))));
        assertThat(calls.of("GetSchedule")).isEqualTo(1);
        assertThat(calls.of("CreateSchedule")).isEqualTo(1);
        assertThat(calls.writes()).isEqualTo(1);
    }

    @Test
    void aSecondIdenticalPut_isUnchanged_andWritesNothing() {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of("locale", "fr"));
        schedules.put(desired);
        var modified = deployed("reminder.acme").lastModificationDate();
        calls.reset();

        assertThat(schedules.put(desired)).isEqualTo(PutResult.UNCHANGED);

        assertThat(calls.writes()).isZero();
        assertThat(calls.of("GetSchedule")).isEqualTo(1);
        assertThat(deployed("reminder.acme").lastModificationDate()).isEqualTo(modified);
    }

    @Test
    void anInputWithOtherKeyOrderAndSpacing_isEqual_soThePutWritesNothing() throws Exception {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of("locale", "fr"));
        schedules.put(desired);
        Map<?, ?> written =
                (Map<?, ?>) Json.read(deployed("reminder.acme").target().input());
        List<Map.Entry<?, ?>> reversed = new ArrayList<>(written.entrySet());
        java.util.Collections.reverse(reversed);
        StringBuilder text = new StringBuilder("{ ");
        for (Map.Entry<?, ?> entry : reversed) {
            text.append(text.length() > 2 ? ",\n  " : "")
                    .append(Json.write(entry.getKey()))
                    .append(" : ")
                    .append(Json.write(entry.getValue()));
        }
        String reordered = text.append(" }").toString();
        editByHand(
                "reminder.acme",
                b -> b.target(deployed("reminder.acme").target().toBuilder()
                        .input(reordered)
                        .build()));
        calls.reset();

        assertThat(schedules.put(desired)).isEqualTo(PutResult.UNCHANGED);

        assertThat(calls.writes()).isZero();
        assertThat(deployed("reminder.acme").target().input()).isEqualTo(reordered);
    }

    @Test
    void aChangedZone_isUpdatedInPlace() {
        schedules.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr")));
        calls.reset();

        assertThat(schedules.put(reminder("acme", "America/New_York", Map.of("locale", "fr"))))
                .isEqualTo(PutResult.UPDATED);

        assertThat(deployed("reminder.acme").scheduleExpressionTimezone()).isEqualTo("America/New_York");
        assertThat(scheduleNamesInGroup()).containsExactly("reminder.acme");
        assertThat(calls.of("UpdateSchedule")).isEqualTo(1);
        assertThat(calls.writes()).isEqualTo(1);
    }

    @Test
    void aChangedExpression_isUpdatedInPlace() {
        schedules.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr")));
        calls.reset();

        EntitySchedule evening =
                EntitySchedule.of(REMINDER, "acme", "30 18 * * *", "Europe/Paris", Map.of("locale", "fr"));
        assertThat(schedules.put(evening)).isEqualTo(PutResult.UPDATED);

        assertThat(deployed("reminder.acme").scheduleExpression()).isEqualTo("cron(30 18 * * ? *)");
        assertThat(schedules.get("reminder", "acme")).contains(evening);
        assertThat(scheduleNamesInGroup()).containsExactly("reminder.acme");
        assertThat(calls.of("UpdateSchedule")).isEqualTo(1);
    }

    @Test
    void changedParameters_areUpdatedInPlace() {
        schedules.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr")));
        calls.reset();

        assertThat(schedules.put(reminder("acme", "Europe/Paris", Map.of("locale", "de"))))
                .isEqualTo(PutResult.UPDATED);
        assertThat(schedules.put(reminder("acme", "Europe/Paris", Map.of()))).isEqualTo(PutResult.UPDATED);

        assertThat(schedules.get("reminder", "acme").orElseThrow().parameters()).isEmpty();
        assertThat(scheduleNamesInGroup()).containsExactly("reminder.acme");
        assertThat(calls.of("UpdateSchedule")).isEqualTo(2);
        assertThat(calls.of("CreateSchedule")).isZero();
    }

    @Test
    void aGet_returnsWhatWasPut() {
        EntitySchedule desired = reminder("acme", "Asia/Tokyo", Map.of("locale", "ja"));
        schedules.put(desired);

        assertThat(schedules.get("reminder", "acme")).contains(desired);
    }

    @Test
    void aGetOfAnEntityWithoutSchedule_isEmpty() {
        assertThat(schedules.get("reminder", "nobody")).isEmpty();
    }

    @Test
    void aDelete_writesTheEntitysTombstoneBeforeItDeletesTheSchedule_soADeliveryInFlightIsRefused() {
        schedules.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr")));
        AtomicReference<Boolean> deletedWhenScheduleWent = new AtomicReference<>();
        EntitySchedules deleting = new EntitySchedules(
                open(SchedulerEmulator.client(
                        calls,
                        onFirst(
                                "DeleteSchedule",
                                () -> deletedWhenScheduleWent.set(
                                        ledger.lock("reminder:acme").deleted())))),
                CATALOG,
                targets,
                tombstones);

        assertThat(deleting.delete("reminder", "acme")).isTrue();

        assertThat(deletedWhenScheduleWent).as("tombstone first").hasValue(true);
        assertThat(ledger.lock("reminder:acme").tombstone().deletedBy()).isEqualTo(LedgerEmulator.CALLER);
        RunKey inFlight = new RunKey("reminder:acme", Instant.now().truncatedTo(ChronoUnit.MINUTES));
        assertThat(ledger.claim(
                        ClaimRequest.scheduled(inFlight, 2, 3, Instant.now().plusSeconds(60))
                                .onEntityLease("reminder", Optional.empty())))
                .as("the runtime's claim of a delivery still in flight")
                .isInstanceOf(EntityDeleted.class);
        assertThat(scheduleNamesInGroup()).isEmpty();
    }

    @Test
    void aPutOfADeletedEntity_clearsItsTombstoneBeforeItWritesTheSchedule_andItsDeliveriesAreClaimedAgain() {
        schedules.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr")));
        schedules.delete("reminder", "acme");
        AtomicReference<Boolean> deletedWhenScheduleCame = new AtomicReference<>();
        EntitySchedules putting = new EntitySchedules(
                open(SchedulerEmulator.client(
                        calls,
                        onFirst(
                                "CreateSchedule",
                                () -> deletedWhenScheduleCame.set(
                                        ledger.lock("reminder:acme").deleted())))),
                CATALOG,
                targets,
                tombstones);

        assertThat(putting.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr"))))
                .isEqualTo(PutResult.CREATED);

        assertThat(deletedWhenScheduleCame).as("cleared first").hasValue(false);
        RunKey next = new RunKey("reminder:acme", Instant.now().truncatedTo(ChronoUnit.MINUTES));
        assertThat(ledger.claim(ClaimRequest.scheduled(next, 1, 3, Instant.now().plusSeconds(60))
                        .onEntityLease("reminder", Optional.empty())))
                .isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void aDeleteOfAnEntityWithoutASchedule_stillLeavesItsTombstone_andAPutClearsIt() {
        assertThat(schedules.delete("reminder", "never")).isFalse();
        assertThat(ledger.lock("reminder:never").deleted()).isTrue();

        schedules.put(reminder("never", "UTC", Map.of()));

        assertThat(ledger.lock("reminder:never").deleted()).isFalse();
    }

    @Test
    void aCallerNameThatIsBlankTooLongOrHidesCharacters_isRefusedNamingTheField_andTheLedgerTableOutputToo() {
        for (String caller : new String[] {" ", "x".repeat(129), "svc\u0007"}) {
            assertThatThrownBy(() -> EntityTombstones.onTable(LedgerEmulator.dynamo(), ledgerTable, caller))
                    .isInstanceOfSatisfying(
                            EntityTargetsException.class,
                            e -> assertThat(e.field()).isEqualTo("caller"))
                    .hasMessageContaining("accepted: the service's name");
        }
        assertThatThrownBy(() -> EntityTombstones.onStage(LedgerEmulator.dynamo(), Map.of(), "svc"))
                .isInstanceOfSatisfying(
                        EntityTargetsException.class, e -> assertThat(e.field()).isEqualTo("outputs.LedgerTableName"));
    }

    @Test
    void aDelete_removesTheSchedule_andASecondDeleteIsFalse() {
        schedules.put(reminder("acme", "Europe/Paris", Map.of()));

        assertThat(schedules.delete("reminder", "acme")).isTrue();
        assertThat(schedules.get("reminder", "acme")).isEmpty();
        assertThat(schedules.delete("reminder", "acme")).isFalse();
        assertThat(scheduleNamesInGroup()).isEmpty();
    }

    @Test
    void aList_returnsEveryEntityOfTheJob_acrossPages_andNoneOfAnotherJob() {
        List<EntitySchedule> expected = new ArrayList<>();
        for (String entity : List.of("e1", "e2", "e3", "e4", "e5")) {
            EntitySchedule schedule = reminder(entity, "Europe/Paris", Map.of("locale", "fr"));
            schedules.put(schedule);
            expected.add(schedule);
        }
        schedules.put(EntitySchedule.of(DIGEST, "e1", null, "UTC", Map.of()));
        schedules.put(EntitySchedule.of(DIGEST, "e9", null, "UTC", Map.of()));
        // Pages of two: the listing must follow every NextToken.
        EntitySchedules paged =
                new EntitySchedules(open(SchedulerEmulator.client(calls)), CATALOG, targets, tombstones, 2);
        calls.reset();

        assertThat(paged.list("reminder")).containsExactlyElementsOf(expected);
        assertThat(calls.of("ListSchedules")).isEqualTo(3);
        assertThat(calls.of("GetSchedule")).isEqualTo(5);
        assertThat(paged.list("reminder-digest"))
                .extracting(EntitySchedule::entity)
                .containsExactly("e1", "e9");
    }

    @Test
    void aListOfAJobWithoutSchedules_isEmpty() {
        schedules.put(EntitySchedule.of(DIGEST, "e1", null, "UTC", Map.of()));

        assertThat(schedules.list("reminder")).isEmpty();
    }

    @Test
    void aJobWithOneScheduleOfItsOwn_isRefusedNamingJob_byEveryCall() {
        EntitySchedule notPerEntity =
                new EntitySchedule("nightly", "acme", Schedule.parse("0 2 * * *", "UTC"), Map.of());

        assertRefusedJob(() -> schedules.put(notPerEntity), "'nightly' has one schedule of its own");
        assertRefusedJob(() -> schedules.get("nightly", "acme"), "'nightly' has one schedule of its own");
        assertRefusedJob(() -> schedules.delete("nightly", "acme"), "'nightly' has one schedule of its own");
        assertRefusedJob(() -> schedules.list("nightly"), "'nightly' has one schedule of its own");
        assertThat(calls.of("GetSchedule") + calls.of("ListSchedules") + calls.writes())
                .isZero();
    }

    @Test
    void anUnknownJob_isRefusedNamingJob_andThePerEntityJobsAccepted() {
        assertThatThrownBy(() -> schedules.get("remindr", "acme"))
                .isInstanceOfSatisfying(
                        EntityScheduleException.class,
                        e -> assertThat(e.field()).isEqualTo("job"))
                .hasMessageContaining("'remindr' is not a job of the catalog")
                .hasMessageContaining(
                        "accepted: a job declared with perEntity(...): reminder, reminder-digest, export");
    }

    @Test
    void aScheduleThatIsNotACheckedEntitySchedule_isRefusedByThePut() {
        // The record's constructor checks nothing; the put checks it again, the one way.
        EntitySchedule undeclared = new EntitySchedule(
                "reminder", "acme", Schedule.parse("0 9 * * *", "Europe/Paris"), Map.of("colour", "red"));

        assertThatThrownBy(() -> schedules.put(undeclared))
                .isInstanceOfSatisfying(
                        EntityScheduleException.class,
                        e -> assertThat(e.field()).isEqualTo("parameters.colour"));
        assertThat(calls.writes()).isZero();
    }

    @Test
    void aJobWhosePoolHasNoTarget_isRefusedNamingThePool() {
        EntitySchedule export = EntitySchedule.of(EXPORT, "acme", null, "UTC", Map.of());

        assertThatThrownBy(() -> schedules.put(export))
                .isInstanceOfSatisfying(
                        EntityTargetsException.class, e -> assertThat(e.field()).isEqualTo("pools.bulk"))
                .hasMessageContaining("job 'export' runs in pool 'bulk', which has no target here")
                .hasMessageContaining("(default)");
        assertThat(calls.of("GetSchedule") + calls.writes()).isZero();
    }

    @Test
    void aRateNoCronCanExpress_isRefusedNamingSchedule_beforeAnythingIsSent() {
        // EntitySchedule.of refuses it too; a record built past it must not get through the put either.
        EntitySchedule everySeven = new EntitySchedule(
                REMINDER.id(), "acme", dev.punctual.time.Schedule.parse("rate(7 minutes)", "UTC"), Map.of());

        assertThatThrownBy(() -> schedules.put(everySeven))
                .isInstanceOfSatisfying(
                        EntityScheduleException.class,
                        e -> assertThat(e.field()).isEqualTo("schedule"))
                .hasMessageContaining("rate(7 minutes)");
        assertThat(calls.of("GetSchedule") + calls.writes()).isZero();
    }

    @Test
    void eightConcurrentIdenticalPuts_endWithOneEqualSchedule_andOneCreated() throws Exception {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of("locale", "fr"));
        int threads = 8;
        List<PutResult> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<PutResult>> puts = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                puts.add(pool.submit(() -> {
                    start.await();
                    return schedules.put(desired);
                }));
            }
            start.countDown();
            for (Future<PutResult> put : puts) {
                results.add(put.get(2, TimeUnit.MINUTES));
            }
        }

        // One create succeeds per name; every other put reads that one back, equal, and writes nothing.
        assertThat(results).hasSize(threads).isSubsetOf(PutResult.CREATED, PutResult.UPDATED, PutResult.UNCHANGED);
        assertThat(results).filteredOn(PutResult.CREATED::equals).hasSize(1);
        assertThat(results).filteredOn(PutResult.UNCHANGED::equals).hasSize(threads - 1);
        assertThat(calls.of("CreateSchedule")).isBetween(1, threads);
        assertThat(calls.of("UpdateSchedule")).isZero();
        assertThat(scheduleNamesInGroup()).containsExactly("reminder.acme");
        assertThat(schedules.get("reminder", "acme")).contains(desired);
    }

    @Test
    void aCreateThatLosesToAnIdenticalConcurrentPut_readsAgain_andIsUnchanged() {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of("locale", "fr"));
        EntitySchedules other = outsideTheLock();
        EntitySchedules racing = new EntitySchedules(
                open(SchedulerEmulator.client(calls, onFirst("CreateSchedule", () -> other.put(desired)))),
                CATALOG,
                targets,
                tombstones);

        assertThat(racing.put(desired)).isEqualTo(PutResult.UNCHANGED);

        assertThat(calls.of("CreateSchedule")).as("its own create, refused").isEqualTo(1);
        assertThat(calls.of("GetSchedule")).isEqualTo(2);
        assertThat(calls.of("UpdateSchedule")).isZero();
        assertThat(schedules.get("reminder", "acme")).contains(desired);
    }

    @Test
    void aCreateThatLosesToADifferentConcurrentPut_readsAgain_andUpdatesToItsOwn() {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of("locale", "fr"));
        EntitySchedules other = outsideTheLock();
        EntitySchedules racing = new EntitySchedules(
                open(SchedulerEmulator.client(
                        calls, onFirst("CreateSchedule", () -> other.put(reminder("acme", "Asia/Tokyo", Map.of()))))),
                CATALOG,
                targets,
                tombstones);

        assertThat(racing.put(desired)).isEqualTo(PutResult.UPDATED);

        assertThat(schedules.get("reminder", "acme")).contains(desired);
        assertThat(scheduleNamesInGroup()).containsExactly("reminder.acme");
    }

    @Test
    void anUpdateOfAScheduleDeletedSinceItWasRead_createsItAgain() {
        schedules.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr")));
        EntitySchedule changed = reminder("acme", "Europe/Paris", Map.of("locale", "de"));
        EntitySchedules other = outsideTheLock();
        EntitySchedules racing = new EntitySchedules(
                open(SchedulerEmulator.client(
                        calls, onFirst("UpdateSchedule", () -> other.delete("reminder", "acme")))),
                CATALOG,
                targets,
                tombstones);
        calls.reset();

        assertThat(racing.put(changed)).isEqualTo(PutResult.CREATED);
        assertThat(ledger.lock("reminder:acme").deleted()).isFalse();

        assertThat(calls.of("UpdateSchedule"))
                .as("its own update, of a schedule gone")
                .isEqualTo(1);
        assertThat(calls.of("CreateSchedule")).isEqualTo(1);
        assertThat(schedules.get("reminder", "acme")).contains(changed);
    }

    @Test
    void anEntityIdWithAColon_getsAHashedName_andWorksForPutGetAndList() {
        EntitySchedule tenant = reminder("tenant:42", "Europe/Paris", Map.of("locale", "fr"));
        EntitySchedule plain = reminder("acme", "UTC", Map.of());
        String hashed = EntityScheduleName.of("reminder", "tenant:42");
        assertThat(hashed).startsWith("reminder..");

        assertThat(schedules.put(tenant)).isEqualTo(PutResult.CREATED);
        schedules.put(plain);

        assertThat(deployed(hashed).scheduleExpressionTimezone()).isEqualTo("Europe/Paris");
        assertThat(schedules.get("reminder", "tenant:42")).contains(tenant);
        assertThat(schedules.put(tenant)).isEqualTo(PutResult.UNCHANGED);
        assertThat(schedules.list("reminder")).containsExactly(plain, tenant);
        assertThat(schedules.delete("reminder", "tenant:42")).isTrue();
        assertThat(schedules.list("reminder")).containsExactly(plain);
    }

    @Test
    void aScheduleEditedByHandIntoAnInvalidOne_isReportedByGet_andReplacedByThePut() throws Exception {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of("locale", "fr"));
        schedules.put(desired);
        Map<String, Object> input = new LinkedHashMap<>();
        ((Map<?, ?>) Json.read(deployed("reminder.acme").target().input()))
                .forEach((key, value) -> input.put((String) key, value));
        input.put("zone", "Mars/Olympus_Mons");
        editByHand(
                "reminder.acme",
                b -> b.target(deployed("reminder.acme").target().toBuilder()
                        .input(Json.write(input))
                        .build()));

        assertThatThrownBy(() -> schedules.get("reminder", "acme"))
                .isInstanceOfSatisfying(UnreadableScheduleException.class, e -> {
                    assertThat(e.schedule()).isEqualTo(targets.group() + "/reminder.acme");
                    assertThat(e.field()).isEqualTo("Target.Input.zone");
                })
                .hasMessageContaining("schedule " + targets.group() + "/reminder.acme: Target.Input.zone: ")
                .hasMessageContaining("Mars/Olympus_Mons");
        assertThatThrownBy(() -> schedules.list("reminder")).isInstanceOf(UnreadableScheduleException.class);

        assertThat(schedules.put(desired)).isEqualTo(PutResult.UPDATED);
        assertThat(schedules.get("reminder", "acme")).contains(desired);
    }

    @Test
    void aScheduleWhoseExpressionWasEditedAlone_isReportedByGet_namingScheduleExpression() {
        schedules.put(reminder("acme", "Europe/Paris", Map.of()));
        editByHand("reminder.acme", b -> b.scheduleExpression("cron(0 12 * * ? *)"));

        assertThatThrownBy(() -> schedules.get("reminder", "acme"))
                .isInstanceOfSatisfying(
                        UnreadableScheduleException.class,
                        e -> assertThat(e.field()).isEqualTo("ScheduleExpression"))
                .hasMessageContaining(
                        "'cron(0 12 * * ? *)' in 'Europe/Paris' is not what its input's schedule deploys as")
                .hasMessageContaining("accepted: 'cron(0 9 * * ? *)' in Europe/Paris");
    }

    @Test
    void aScheduleDisabledByHand_isEnabledAgainByThePut() {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of());
        schedules.put(desired);
        editByHand("reminder.acme", b -> b.state(ScheduleState.DISABLED));

        assertThat(schedules.put(desired)).isEqualTo(PutResult.UPDATED);

        assertThat(deployed("reminder.acme").state()).isEqualTo(ScheduleState.ENABLED);
    }

    @Test
    void aScheduleThatIsNotPunctuals_isRefusedByPutAndGet_andLeftAsItIs() {
        raw.createSchedule(r -> r.groupName(targets.group())
                .name("reminder.acme")
                .scheduleExpression("rate(5 minutes)")
                .flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                .target(t -> t.arn(FUNCTION).roleArn(ROLE).input("{\"hello\":\"world\"}")));

        assertThatThrownBy(() -> schedules.put(reminder("acme", "Europe/Paris", Map.of())))
                .isInstanceOfSatisfying(
                        UnreadableScheduleException.class,
                        e -> assertThat(e.field()).isEqualTo("Target.Input"))
                .hasMessageContaining("names kind (none), job (none) and entity (none)")
                .hasMessageContaining("not Punctual's schedule of reminder for acme");
        assertThatThrownBy(() -> schedules.get("reminder", "acme")).isInstanceOf(UnreadableScheduleException.class);

        assertThat(calls.writes()).isZero();
        assertThat(deployed("reminder.acme").target().input()).isEqualTo("{\"hello\":\"world\"}");
        assertThat(schedules.delete("reminder", "acme")).isTrue();
    }

    @Test
    void aFaultOfTheApi_isASchedulerCallException_namingTheOperationAndTheSchedule() {
        EntityTargets elsewhere = EntityTargets.builder("punctual-t-missing-entities")
                .pool("default", FUNCTION, ROLE)
                .build();
        SchedulerClientBuilder builder = EntitySchedules.clientBuilder(SchedulerEmulator.REGION)
                .endpointOverride(SchedulerEmulator.endpoint())
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("test", "test")))
                // One attempt, so the fault arrives without the retries' back-off.
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()));
        EntitySchedules inAMissingGroup = new EntitySchedules(open(builder.build()), CATALOG, elsewhere, tombstones);

        assertThatThrownBy(() -> inAMissingGroup.put(reminder("acme", "UTC", Map.of())))
                .isInstanceOfSatisfying(SchedulerCallException.class, e -> {
                    assertThat(e.operation()).isEqualTo("CreateSchedule");
                    assertThat(e.schedule()).isEqualTo("punctual-t-missing-entities/reminder.acme");
                })
                .isInstanceOf(dev.punctual.PunctualException.class)
                .hasMessageStartingWith(
                        "EventBridge Scheduler CreateSchedule of punctual-t-missing-entities/reminder.acme failed: ");
    }

    @Test
    void theFactorysClient_talksToTheGivenEndpoint() {
        // Credentials from the default chain: the build sets dummy ones in every test's environment.
        EntitySchedules viaFactory = new EntitySchedules(
                open(EntitySchedules.schedulerClient(
                        SchedulerEmulator.REGION, Optional.of(SchedulerEmulator.endpoint()))),
                CATALOG,
                targets,
                tombstones);

        assertThat(viaFactory.put(reminder("acme", "UTC", Map.of()))).isEqualTo(PutResult.CREATED);
        assertThat(schedules.get("reminder", "acme")).isPresent();
    }

    private static EntitySchedule reminder(String entity, String zone, Map<String, ?> parameters) {
        return EntitySchedule.of(REMINDER, entity, null, zone, parameters);
    }

    private GetScheduleResponse deployed(String name) {
        return raw.getSchedule(r -> r.groupName(targets.group()).name(name));
    }

    private List<String> scheduleNamesInGroup() {
        List<String> names = new ArrayList<>();
        raw.listSchedulesPaginator(r -> r.groupName(targets.group()))
                .schedules()
                .forEach(s -> names.add(s.name()));
        return names;
    }

    /** An UpdateSchedule as a person in the console would make it: everything as it is, but the edit. */
    private void editByHand(String name, UnaryOperator<UpdateScheduleRequest.Builder> edit) {
        GetScheduleResponse now = deployed(name);
        UpdateScheduleRequest.Builder request = UpdateScheduleRequest.builder()
                .groupName(targets.group())
                .name(name)
                .description(now.description())
                .scheduleExpression(now.scheduleExpression())
                .scheduleExpressionTimezone(now.scheduleExpressionTimezone())
                .state(now.state())
                .flexibleTimeWindow(now.flexibleTimeWindow())
                .target(now.target());
        raw.updateSchedule(edit.apply(request).build());
    }

    private void assertRefusedJob(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        EntityScheduleException.class,
                        e -> assertThat(e.field()).isEqualTo("job"))
                .hasMessageContaining(message)
                .hasMessageContaining("accepted: a job declared with perEntity(...)");
    }

    /**
     * A writer the entity's write lock does not hold off: a client on another ledger (a hand edit, a
     * writer of another release); the put's rounds are for such writers.
     */
    private EntitySchedules outsideTheLock() {
        return new EntitySchedules(raw, CATALOG, targets, LedgerEmulator.tombstones(LedgerEmulator.freshTable()));
    }

    @Test
    void aDeleteThatComesWhileAPutIsBetweenItsTombstoneClearAndItsWrite_waits_soTheDeleteWinsInBoth() throws Exception {
        // acme was deleted; a put of it again is under way: its tombstone is cleared and its read is about
        // to go out when a delete of acme starts on another thread (issue 40: both used to succeed and leave
        // the schedule in place with a tombstone refusing every delivery).
        schedules.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr")));
        schedules.delete("reminder", "acme");
        CountDownLatch deleteWaitsOrIsDone = new CountDownLatch(1);
        AtomicReference<Boolean> deleted = new AtomicReference<>();
        EntitySchedules deleting = new EntitySchedules(raw, CATALOG, targets, tombstones.waitingWith(duration -> {
            deleteWaitsOrIsDone.countDown(); // it met the put's write lock
            dev.punctual.ledger.Sleeper.real().sleep(duration); // and backs off as in production
        }));
        try (ExecutorService other = Executors.newSingleThreadExecutor()) {
            EntitySchedules putting = new EntitySchedules(
                    open(SchedulerEmulator.client(onFirst("GetSchedule", () -> {
                        other.submit(() -> {
                            try {
                                deleted.set(deleting.delete("reminder", "acme"));
                            } finally {
                                deleteWaitsOrIsDone.countDown();
                            }
                            return null;
                        });
                        await(deleteWaitsOrIsDone);
                    }))),
                    CATALOG,
                    targets,
                    tombstones);

            assertThat(putting.put(reminder("acme", "Europe/Paris", Map.of("locale", "fr"))))
                    .isEqualTo(PutResult.CREATED);
        }

        // The delete waited for the put and then ran: it is the later one, in the ledger and the scheduler.
        assertThat(deleted.get()).as("the delete found the put's schedule").isTrue();
        assertThat(scheduleNamesInGroup()).isEmpty();
        assertThat(ledger.lock("reminder:acme").deleted()).isTrue();
    }

    @Test
    void concurrentPutsAndDeletesOfOneEntity_onRealThreads_endWithTheScheduleExactlyWhenNoTombstoneStands()
            throws Exception {
        EntitySchedule desired = reminder("acme", "Europe/Paris", Map.of("locale", "fr"));
        for (int round = 0; round < 12; round++) {
            try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> writes = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    boolean put = (i + round) % 2 == 0;
                    writes.add(pool.submit(() -> {
                        start.await();
                        return put ? schedules.put(desired) : schedules.delete("reminder", "acme");
                    }));
                }
                start.countDown();
                for (Future<?> write : writes) {
                    write.get(5, TimeUnit.MINUTES); // each succeeds: none is refused or left half done
                }
            }
            boolean scheduled = !scheduleNamesInGroup().isEmpty();
            boolean tombstoned = ledger.lock("reminder:acme").deleted();
            assertThat(scheduled)
                    .as("round %d: a schedule stands exactly when no tombstone refuses its deliveries", round)
                    .isNotEqualTo(tombstoned);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the racing delete neither waited nor finished");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Runs the action once, just before the first call of the operation is sent: a race, on cue. */
    private static ExecutionInterceptor onFirst(String operation, Runnable action) {
        AtomicBoolean done = new AtomicBoolean();
        return new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                if (operation.equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                        && done.compareAndSet(false, true)) {
                    action.run();
                }
            }
        };
    }

    private SchedulerClient open(SchedulerClient client) {
        clients.add(client);
        return client;
    }
}
