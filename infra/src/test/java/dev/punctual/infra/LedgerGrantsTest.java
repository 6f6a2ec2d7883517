package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobServices;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.LedgerHistory;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.RuntimeServices;
import dev.punctual.stage.StageFlags;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The ledger adapter's own requests against the roles synthesised for them: each pool's function runs
 * its jobs through the real runtime and {@code DynamoDbLedgerStore} on the emulator, every item it
 * touches is recorded ({@link LedgerRequests}), and each must be allowed by that pool's role as
 * synthesised ({@link LedgerPolicy}); so must the operator's maintenance on and off by the operator
 * policy. The same recording shows a job with its own client completing another pool's job, as a red
 * team did (issue 24, item 14c), denied at every write.
 *
 * <p>The catalog has what crosses pools: a group shared by jobs of two pools (reservations), a group
 * named after another pool's job (audit runs in report's group), the watchdog, a destructive job.
 */
class LedgerGrantsTest {

    private static final Instant DAY = Instant.parse("2026-11-30T00:00:00Z");
    private static final FunctionPool BATCH = new FunctionPool("batch", 512, Duration.ofMinutes(5));
    private static final AtomicInteger REPORT_RUNS = new AtomicInteger();

    private static final JobCatalog CATALOG = new JobCatalog(List.of(
                    job("report", "0 9 * * *", null, FunctionPool.DEFAULT)
                            .job(services -> context -> {
                                if (REPORT_RUNS.incrementAndGet() == 1) {
                                    throw new IllegalStateException("first attempt fails");
                                }
                                return JobResult.empty();
                            })
                            .build(),
                    job("expire", "0 * * * *", "reservations", FunctionPool.DEFAULT)
                            .job(services -> context -> JobResult.empty())
                            .build(),
                    job("refund", "0 * * * *", "reservations", BATCH)
                            .job(services -> context -> {
                                context.extendLease(Duration.ofMinutes(10));
                                return JobResult.empty();
                            })
                            .build(),
                    job("audit", "30 9 * * *", "report", BATCH)
                            .job(services -> context -> {
                                context.extendLease(Duration.ofMinutes(10));
                                return JobResult.empty();
                            })
                            .build(),
                    job("purge", "0 3 * * *", null, BATCH)
                            .destructive()
                            .job(services -> context -> JobResult.empty())
                            .build()))
            .plus(List.of(MissedRunWatchdog.definition()));

    /** A job's part of its own lock item (docs/ledger.md): what only its own pool may write. */
    private static final Set<String> JOB_PART = Set.of(
            "cursor",
            "occ",
            "occStatus",
            "occAttempts",
            "occOwner",
            "occFence",
            "occTrigger",
            "occSchedulerAttempt",
            "occStartedAt");

    private static final MutableClock CLOCK = new MutableClock(DAY);
    private static final List<DynamoDbClient> CLIENTS = new ArrayList<>();

    private static String table;
    private static Template template;
    private static String ledgerId;
    private static StageStack stage;
    private static PoolFunction defaultPool;
    private static PoolFunction batchPool;
    private static Operator operator;
    private static final Map<String, String> OUTCOMES = new LinkedHashMap<>();

    @BeforeAll
    static void runEveryPathOfTheLedger() {
        stage = Synth.stage(Stages.named("dev"), CATALOG);
        template = Template.fromStack(stage);
        ledgerId = Templates.logicalId(stage.tables().ledger());
        table = TestTables.uniqueName(LedgerGrantsTest.class, "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        defaultPool = new PoolFunction(FunctionPool.DEFAULT.name());
        batchPool = new PoolFunction(BATCH.name());
        operator = new Operator();

        at("03:00:02");
        OUTCOMES.put("purge destructive", batchPool.deliver("purge", "03:00"));
        at("04:07:02");
        OUTCOMES.put("watchdog after purge", defaultPool.deliver(MissedRunWatchdog.ID, "04:07"));
        at("09:00:02");
        OUTCOMES.put("report failing", defaultPool.deliver("report", "09:00"));
        OUTCOMES.put("report retried", defaultPool.deliver("report", "09:00"));
        OUTCOMES.put("report again", defaultPool.deliver("report", "09:00"));
        at("09:30:02");
        OUTCOMES.put("audit in report's group", batchPool.deliver("audit", "09:30"));
        at("10:00:02");
        OUTCOMES.put("refund waiting for expire", batchPool.deliver("refund", "10:00"));
        OUTCOMES.put("expire after refund", defaultPool.deliver("expire", "10:00"));
        at("10:07:02");
        OUTCOMES.put("watchdog", defaultPool.deliver(MissedRunWatchdog.ID, "10:07"));
        at("11:00:02");
        defaultPool.claimAndDie("expire", "11:00", "reservations");
        at("11:10:00");
        OUTCOMES.put("expire after a dead run", defaultPool.deliver("expire", "11:00"));
        at("20:00:02");
        OUTCOMES.put("expire after a gap", defaultPool.deliver("expire", "20:00"));
        at("21:00:02");
        operator.maintenanceOn();
        OUTCOMES.put("expire under maintenance", defaultPool.deliver("expire", "21:00"));
        OUTCOMES.put("audit under maintenance", batchPool.manualRun("audit", "09:30", true));
        operator.maintenanceOff();
        operator.status();
        OUTCOMES.put("report forced", defaultPool.manualRun("report", "09:00", true));
    }

    @AfterAll
    static void close() {
        CLIENTS.forEach(DynamoDbClient::close);
    }

    @Test
    void theScenarios_reachEveryOutcomeTheyAreMeantTo() {
        assertThat(OUTCOMES)
                .containsEntry("purge destructive", "SKIP DESTRUCTIVE_DISABLED")
                .containsEntry("report failing", "FAIL JOB_ERROR")
                .containsEntry("report retried", "PASS OK")
                .containsEntry("report again", "SKIP ALREADY_DONE")
                .containsEntry("audit in report's group", "PASS OK")
                .containsEntry("refund waiting for expire", "PASS OK")
                .containsEntry("expire after refund", "PASS OK")
                .containsEntry("watchdog after purge", "PASS OK")
                .containsEntry("watchdog", "PASS OK")
                .containsEntry("expire under maintenance", "SKIP MAINTENANCE")
                .containsEntry("audit under maintenance", "SKIP MAINTENANCE")
                .containsEntry("expire after a dead run", "PASS OK")
                // Eight occurrences behind: three caught up and 20:00 itself pass, the rest are recorded missed.
                .containsEntry("expire after a gap", "PASS OK, PASS OK, PASS OK, PASS OK")
                .containsEntry("report forced", "PASS OK");
    }

    @Test
    void everyItemThePoolsFunctionsTouch_isAllowedByThatPoolsRole() {
        for (PoolFunction function : List.of(defaultPool, batchPool)) {
            assertThat(function.requests.unexpected()).as(function.pool).isEmpty();
            assertThat(function.requests.accesses()).as(function.pool).isNotEmpty();
            assertThat(denied(function.policy(), function.requests.accesses()))
                    .as("pool %s's requests its role denies", function.pool)
                    .isEmpty();
        }
    }

    @Test
    void theRecordedRequests_crossEveryBoundaryTheRolesDraw() {
        List<LedgerRequests.Access> batch = batchPool.requests.accesses();
        List<LedgerRequests.Access> defaults = defaultPool.requests.accesses();

        // The lease of a group shared with the other pool, and of a group that is another pool's job's item.
        assertThat(batch)
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.partitionKey().equals("lock#reservations"));
        assertThat(batch)
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.partitionKey().equals("lock#report"));
        // Catalog order: refund read expire's items before expire ran.
        assertThat(batch)
                .anyMatch(a -> a.action().equals("dynamodb:GetItem")
                        && a.partitionKey().equals("run#expire"));
        // The watchdog read a job of the other pool that shares no group; a gap recorded a missed range;
        // the dead run and the gap's catch-up put more run items.
        assertThat(defaults)
                .anyMatch(a -> a.action().equals("dynamodb:GetItem")
                        && a.partitionKey().equals("lock#purge"));
        assertThat(defaults)
                .anyMatch(a ->
                        a.action().equals("dynamodb:PutItem") && a.sortKey().endsWith("#missed"));
        assertThat(defaults)
                .filteredOn(a -> a.action().equals("dynamodb:PutItem")
                        && a.partitionKey().equals("run#expire"))
                .hasSizeGreaterThan(3);
    }

    @Test
    void maintenanceOnAndOff_andStatus_areAllowedByTheOperatorPolicy() {
        assertThat(operator.requests.unexpected()).isEmpty();
        assertThat(operator.requests.accesses())
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.partitionKey().equals("lock#reservations"))
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.partitionKey().equals("lock#report"));
        assertThat(denied(operator.policy(), operator.requests.accesses())).isEmpty();
    }

    @Test
    void aJobWithItsOwnClient_completingAnotherPoolsJob_isDeniedEveryWrite() {
        // What the red team did from a job of pool batch: record report's occurrence as SUCCEEDED and
        // move report's cursor, with the ledger's own code.
        PoolFunction forger = new PoolFunction(BATCH.name());
        RunKey key = new RunKey("report", time("09:00"));
        ClaimResult claim = forger.ledger.claim(
                ClaimRequest.scheduled(key, 1, 3, CLOCK.peek().plus(Duration.ofMinutes(5)))
                        .forced(Trigger.MANUAL));
        forger.ledger.complete(((ClaimResult.Claimed) claim).claim(), new Outcome.Succeeded("{}"));
        forger.ledger.recordMissed(new RunKey("report", time("09:00")), time("09:00"), 1);

        // Its writes of report's run items and of report's part of its lock item; taking and giving back
        // the lease of report's group stays allowed, since audit, a job of pool batch, runs in that group.
        List<LedgerRequests.Access> forged = forger.requests.accesses().stream()
                .filter(a -> !a.action().equals("dynamodb:GetItem"))
                .filter(a -> a.partitionKey().startsWith("run#")
                        || a.attributes().stream().anyMatch(JOB_PART::contains))
                .toList();
        assertThat(forged)
                .anyMatch(a -> a.partitionKey().equals("run#report"))
                .anyMatch(a -> a.attributes().contains("cursor"));
        assertThat(denied(forger.policy(), forged)).isEqualTo(forged);
    }

    @Test
    void anOperator_movingAJobsCursor_isDenied() {
        Operator moving = new Operator();
        moving.ledger.recordMissed(new RunKey("report", time("09:00")), time("09:00"), 1);

        List<LedgerRequests.Access> cursorMoves = moving.requests.accesses().stream()
                .filter(a -> a.action().equals("dynamodb:UpdateItem"))
                .toList();
        assertThat(cursorMoves).isNotEmpty().allMatch(a -> a.attributes().contains("cursor"));
        assertThat(denied(moving.policy(), cursorMoves)).isEqualTo(cursorMoves);
    }

    private static List<LedgerRequests.Access> denied(LedgerPolicy policy, List<LedgerRequests.Access> accesses) {
        return accesses.stream().filter(a -> !policy.allows(a)).toList();
    }

    private static JobDefinition.Builder job(String id, String cron, String group, FunctionPool pool) {
        return JobDefinition.builder(id).schedule(cron, "UTC").lockGroup(group).pool(pool);
    }

    private static Instant time(String hhmm) {
        return Instant.parse("2026-11-30T" + (hhmm.length() == 5 ? hhmm + ":00" : hhmm) + "Z");
    }

    private static void at(String hhmmss) {
        Instant target = time(hhmmss);
        if (CLOCK.peek().isBefore(target)) {
            CLOCK.advance(Duration.between(CLOCK.peek(), target));
        }
    }

    private static RunLedger ledger(LedgerRequests requests) {
        DynamoDbClient client = DynamoDbHarness.newClient(
                builder -> builder.overrideConfiguration(c -> c.addExecutionInterceptor(requests)));
        CLIENTS.add(client);
        return DynamoDbRunLedger.create(
                client, table, CLOCK, () -> UUID.randomUUID().toString(), Retention.DEFAULT, CLOCK::advance);
    }

    /** One pool's function: the runtime on a ledger whose client records what it sends. */
    private static final class PoolFunction {
        final String pool;
        final LedgerRequests requests = new LedgerRequests();
        final RunLedger ledger = LedgerGrantsTest.ledger(requests);
        final PunctualRuntime runtime;

        PoolFunction(String pool) {
            this.pool = pool;
            this.runtime = new PunctualRuntime(new RuntimeServices(
                    CATALOG,
                    ledger,
                    StageFlags.defaultsFor("dev"),
                    event -> {},
                    CLOCK,
                    CLOCK::advance,
                    new JobServices(CLOCK, CATALOG, new LedgerHistory(ledger)),
                    message -> new DeliveryReceipt.Sent(message.channel(), message.recipient())));
        }

        LedgerPolicy policy() {
            return LedgerPolicy.ofRole(
                    template,
                    Templates.logicalId(stage.pools().get(pool).function().getRole()),
                    ledgerId);
        }

        String deliver(String job, String hhmm) {
            return handle("{\"kind\":\"scheduled\",\"job\":\"" + job + "\",\"scheduled_time\":\"" + time(hhmm)
                    + "\",\"execution_id\":\"" + UUID.randomUUID() + "\",\"attempt_number\":\"1\"}");
        }

        String manualRun(String job, String hhmm, boolean force) {
            return handle(
                    "{\"kind\":\"run\",\"job\":\"" + job + "\",\"at\":\"" + time(hhmm) + "\",\"force\":" + force + "}");
        }

        /** A claim whose Lambda dies before completing: the lease runs out with the slot still RUNNING. */
        void claimAndDie(String job, String hhmm, String group) {
            RunKey key = new RunKey(job, time(hhmm));
            ClaimResult claim =
                    ledger.claim(ClaimRequest.scheduled(key, 1, 3, CLOCK.peek().plus(Duration.ofMinutes(1)))
                            .inGroup(group));
            assertThat(claim).isInstanceOf(ClaimResult.Claimed.class);
        }

        private String handle(String payload) {
            StructuredLog log = new StructuredLog(line -> {}, CLOCK, "punctual", Redactor.standard())
                    .forInvocation("test-" + UUID.randomUUID(), false);
            InvocationResult result =
                    runtime.handle(payload, Deadline.fromRemaining(CLOCK.peek(), Duration.ofMinutes(5)), log);
            assertThat(result.valid()).as(payload + ": " + result.error()).isTrue();
            return result.occurrences().stream()
                    .map(o -> o.verdict().name() + " " + o.reason().wire())
                    .collect(Collectors.joining(", "));
        }
    }

    /** The operator's CLI in its own JVM: maintenance and status through the same ledger code. */
    private static final class Operator {
        final LedgerRequests requests = new LedgerRequests();
        final RunLedger ledger = LedgerGrantsTest.ledger(requests);

        LedgerPolicy policy() {
            return LedgerPolicy.ofManagedPolicy(template, "StageOutputsOperatorPolicy", ledgerId);
        }

        void maintenanceOn() {
            MaintenanceHold hold = new MaintenanceHold(
                    "upgrade", "operator@example.com", CLOCK.peek().plus(Duration.ofHours(1)));
            assertThat(ledger.maintenanceOn(new MaintenanceRequest(
                                    CATALOG.lockGroups(), hold, Duration.ofSeconds(5), Duration.ofSeconds(1)))
                            .complete())
                    .isTrue();
        }

        void maintenanceOff() {
            assertThat(ledger.maintenanceOff(CATALOG.lockGroups(), Optional.of("operator@example.com")))
                    .containsExactlyInAnyOrderElementsOf(CATALOG.lockGroups());
        }

        void status() {
            for (JobDefinition job : CATALOG.jobs()) {
                ledger.cursor(job.id());
                ledger.lock(job.lockGroup());
                ledger.maintenance(job.lockGroup());
            }
        }
    }
}
