package dev.punctual.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.DeliveryMessage;
import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.Job;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobServices;
import dev.punctual.ledger.DueIndex;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.InMemoryRunLedger;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageFreshness;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The runtime wired to the in-memory ledger, a moved clock and recording ports: what the handler does,
 * without Lambda or DynamoDB.
 */
final class RuntimeFixture {

    static final ObjectMapper JSON = new ObjectMapper();

    final MutableClock clock;
    final RunLedger ledger;
    final List<String> lines = new CopyOnWriteArrayList<>();
    final List<LifecycleEvent> events = new CopyOnWriteArrayList<>();
    final List<String> ran = new CopyOnWriteArrayList<>();
    final List<String> previewed = new CopyOnWriteArrayList<>();
    final List<DeliveryMessage> sent = new CopyOnWriteArrayList<>();
    final PunctualRuntime runtime;

    final List<InvocationResult> nested = new CopyOnWriteArrayList<>();

    /** How the catalog's maintenance conditions answer (decision 0036, 5); each finds nothing until set. */
    final SettableConditionProbe conditions = new SettableConditionProbe();

    /** The ledger operations the runtime asked for (by method name), in order: what a heartbeat costs. */
    final List<String> ledgerCalls = new CopyOnWriteArrayList<>();

    RuntimeFixture(Instant start, StageFlags flags) {
        this(start, flags, RuntimeFixture::inMemory);
    }

    /** @param ledgerOn builds the ledger the runtime runs on, on the fixture's clock; the same tests run on each */
    RuntimeFixture(Instant start, StageFlags flags, Function<MutableClock, RunLedger> ledgerOn) {
        this(start, flags, ledgerOn, RuntimeFixture::catalog);
    }

    /** @param catalogOf the catalog the runtime runs, instead of the fixture's own */
    RuntimeFixture(
            Instant start,
            StageFlags flags,
            Function<MutableClock, RunLedger> ledgerOn,
            Function<RuntimeFixture, JobCatalog> catalogOf) {
        this(start, flags, ledgerOn, catalogOf, DueIndex.NONE);
    }

    /** @param due the ledger's due index the watchdog reads (decision 0031), over the same store as the ledger */
    RuntimeFixture(
            Instant start,
            StageFlags flags,
            Function<MutableClock, RunLedger> ledgerOn,
            Function<RuntimeFixture, JobCatalog> catalogOf,
            DueIndex due) {
        this(start, flags, ledgerOn, catalogOf, due, StageFreshness.NONE);
    }

    /** @param freshness the stage's default freshness bound the watchdog holds jobs to (decision 0042) */
    RuntimeFixture(
            Instant start,
            StageFlags flags,
            Function<MutableClock, RunLedger> ledgerOn,
            Function<RuntimeFixture, JobCatalog> catalogOf,
            DueIndex due,
            StageFreshness freshness) {
        this.clock = new MutableClock(start);
        this.ledger = ledgerOn.apply(clock);
        RunLedger counted = counting(ledger, ledgerCalls);
        JobCatalog catalog = catalogOf.apply(this);
        this.runtime = new PunctualRuntime(new RuntimeServices(
                catalog,
                counted,
                flags,
                events::add,
                clock,
                clock::advance,
                new JobServices(
                        clock,
                        catalog,
                        new LedgerHistory(counted, due),
                        new LifecycleOverdueReports(events::add, flags.stage()),
                        freshness),
                message -> {
                    sent.add(message);
                    return new DeliveryReceipt.Sent(message.channel(), message.recipient());
                },
                conditions));
    }

    /** The ledger, noting the name of every operation called on it (the port, so it counts on every store). */
    private static RunLedger counting(RunLedger ledger, List<String> calls) {
        return (RunLedger) Proxy.newProxyInstance(
                RunLedger.class.getClassLoader(), new Class<?>[] {RunLedger.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() != Object.class) {
                        calls.add(method.getName());
                    }
                    try {
                        return method.invoke(ledger, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** How many times the runtime asked the ledger to extend a lease. */
    long extensions() {
        return ledgerCalls.stream().filter("extend"::equals).count();
    }

    /** The in-memory ledger; the clock is also its sleeper, so waiting moves time instead of passing it. */
    static RunLedger inMemory(MutableClock clock) {
        return InMemoryRunLedger.create(clock);
    }

    static RuntimeFixture dev(Instant start) {
        return new RuntimeFixture(start, StageFlags.defaultsFor("dev"));
    }

    /** An APNs device token (made up) that the "contact" job puts in its result. */
    static final String PUSH_TOKEN = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad";

    JobCatalog catalog() {
        CatchUpPolicy threeWithinSixHours = CatchUpPolicy.oldestFirst(3, Duration.ofHours(6));
        return JobCatalog.of(
                JobDefinition.builder("report")
                        .schedule("0 9 * * *", "America/New_York")
                        .job(services -> previewing(
                                context -> {
                                    ran.add("report@" + context.occurrence());
                                    return JobResult.of(
                                            "rows",
                                            3,
                                            "date",
                                            context.localOccurrence()
                                                    .toLocalDate()
                                                    .toString());
                                },
                                JobPreview.changes(3)))
                        .build(),
                JobDefinition.builder("expire")
                        .schedule("*/15 * * * *", "Asia/Seoul")
                        .lockGroup("reservations")
                        .catchUp(threeWithinSixHours)
                        .job(services -> context -> {
                            ran.add("expire@" + context.occurrence());
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("refund")
                        .schedule("0 * * * *", "Asia/Seoul")
                        .lockGroup("reservations")
                        .job(services -> context -> {
                            ran.add("refund@" + context.occurrence());
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("report-free")
                        .schedule("*/15 * * * *", "UTC")
                        .catchUp(threeWithinSixHours)
                        .job(services -> context -> {
                            ran.add("report-free@" + context.occurrence());
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("nightly-berlin")
                        .schedule("30 2 * * *", "Europe/Berlin")
                        .catchUp(CatchUpPolicy.none()) // daily: six hours could never reach a missed night
                        .job(services -> context -> {
                            ran.add("nightly-berlin@" + context.occurrence());
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("exploder")
                        .schedule("*/15 * * * *", "UTC")
                        .catchUp(threeWithinSixHours)
                        .job(services -> context -> {
                            ran.add("exploder@" + context.occurrence());
                            throw new IllegalStateException("db login failed: password=hunter2-secret");
                        })
                        .build(),
                JobDefinition.builder("purge")
                        .schedule("cron(0 3 ? * SUN *)", "Europe/Berlin")
                        .destructive()
                        .job(services -> context -> {
                            ran.add("purge@" + context.occurrence());
                            return JobResult.of("deleted", 2);
                        })
                        .build(),
                JobDefinition.builder("overrun")
                        .schedule("0 * * * *", "UTC")
                        .job(services -> context -> {
                            ran.add("overrun@" + context.occurrence());
                            clock.advance(Duration.ofMinutes(10)); // far past the lease
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("marathon")
                        .schedule("0 * * * *", "UTC")
                        .job(services -> context -> {
                            // Four one-minute steps under one-minute leases: a heartbeat before each.
                            for (int step = 0; step < 4; step++) {
                                if (!context.extendLease(Duration.ofMinutes(2))) {
                                    throw new IllegalStateException("lease lost at step " + step);
                                }
                                clock.advance(Duration.ofMinutes(1));
                            }
                            ran.add("marathon@" + context.occurrence());
                            return JobResult.of("deadline", context.deadline().toString());
                        })
                        .build(),
                JobDefinition.builder("stepper")
                        .schedule("0 * * * *", "UTC")
                        .job(services -> context -> {
                            // Polls only; never asks for more time itself. Each distinct deadline it
                            // saw is one lease: the first, then one per renewal.
                            int steps = 0;
                            Set<Instant> deadlines = new HashSet<>();
                            while (!context.shouldStop()) {
                                deadlines.add(context.deadline());
                                steps++;
                                clock.advance(Duration.ofSeconds(4));
                            }
                            ran.add("stepper@" + context.occurrence());
                            return JobResult.of(
                                    "steps",
                                    steps,
                                    "stopped_at",
                                    clock.peek().toString(),
                                    "deadlines",
                                    deadlines.size());
                        })
                        .build(),
                JobDefinition.builder("overtaken")
                        .schedule("0 * * * *", "UTC")
                        .job(services -> context -> {
                            ran.add("overtaken@" + context.occurrence());
                            if (ran.size() > 1) {
                                return JobResult.empty(); // the successor's run
                            }
                            clock.advance(Duration.ofSeconds(90)); // past a one-minute lease, no heartbeat
                            nested.add(runtime.handle(scheduled("overtaken", context.occurrence()), deadline(), log()));
                            boolean extended = context.extendLease(Duration.ofMinutes(1));
                            ran.add("overtaken extended=" + extended + " shouldStop=" + context.shouldStop());
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("stuck")
                        .schedule("0 * * * *", "UTC")
                        .job(services -> context -> {
                            ran.add("stuck@" + context.occurrence());
                            if (ran.size() > 1) {
                                return JobResult.empty(); // the successor's run
                            }
                            // Hangs 90 s without polling, long enough for a successor to take over.
                            clock.advance(Duration.ofSeconds(90));
                            nested.add(runtime.handle(scheduled("stuck", context.occurrence()), deadline(), log()));
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("unpolled")
                        .schedule("0 * * * *", "UTC")
                        .job(services -> context -> {
                            // Thirty seconds of work without a poll: it lives on the lease it starts with.
                            clock.advance(Duration.ofSeconds(30));
                            ran.add("unpolled@" + context.occurrence());
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("lapsed")
                        .schedule("0 * * * *", "UTC")
                        .job(services -> context -> {
                            ran.add("lapsed@" + context.occurrence());
                            if (ran.size() > 1) {
                                return JobResult.empty(); // the successor's run
                            }
                            boolean before = context.shouldStop();
                            clock.advance(Duration.ofSeconds(90)); // one step far longer than the lease
                            nested.add(runtime.handle(scheduled("lapsed", context.occurrence()), deadline(), log()));
                            ran.add("lapsed shouldStop=" + before + "," + context.shouldStop());
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("reentrant")
                        .schedule("30 * * * *", "UTC")
                        .job(services -> context -> {
                            ran.add("reentrant@" + context.occurrence());
                            nested.add(runtime.handle(scheduled("reentrant", context.occurrence()), deadline(), log()));
                            return JobResult.empty();
                        })
                        .build(),
                JobDefinition.builder("verbose")
                        .schedule("0 * * * *", "UTC")
                        .job(services -> context -> {
                            ran.add("verbose@" + context.occurrence());
                            // A secret under a secret's name, then more than the outcome line keeps.
                            return JobResult.of(
                                    "api_token",
                                    "tok-123456",
                                    "batches",
                                    List.of(1, 2),
                                    "notes",
                                    "n".repeat(1500),
                                    "remarks",
                                    "r".repeat(1500),
                                    "rows",
                                    7);
                        })
                        .build(),
                JobDefinition.builder("contact")
                        .schedule("30 * * * *", "UTC")
                        .job(services -> context -> {
                            ran.add("contact@" + context.occurrence());
                            // Personal data in free text, in the job's own log line and in its result.
                            context.log().info("reminder sent to bob@example.com", Map.of("sms", "+82 10-1234-5678"));
                            return JobResult.of(
                                    "note", "charged 4111 1111 1111 1111, pushed to " + PUSH_TOKEN, "rows", 1);
                        })
                        .build(),
                JobDefinition.builder("bouncer")
                        .schedule("45 * * * *", "UTC")
                        .job(services -> context -> {
                            ran.add("bouncer@" + context.occurrence());
                            throw new IllegalStateException(
                                    "SMTP 550: no mailbox bob@example.com; SMS to 010-1234-5678");
                        })
                        .build(),
                JobDefinition.builder("remind")
                        .schedule("0 18 * * *", "Asia/Seoul")
                        .externalDelivery()
                        .job(services -> previewing(
                                context -> {
                                    ran.add("remind@" + context.occurrence());
                                    DeliveryReceipt receipt = context.delivery()
                                            .send(new DeliveryMessage(
                                                    "push", "member-1", "Tomorrow", "Your room is ready"));
                                    return JobResult.of(
                                            "receipt", receipt.getClass().getSimpleName());
                                },
                                JobPreview.deliveries(1)))
                        .build());
    }

    /** The job, answering a dry run with the given counts (and recording the preview, not a run). */
    private Job previewing(Job job, JobPreview counts) {
        return new Job() {
            @Override
            public JobResult run(JobContext context) throws Exception {
                return job.run(context);
            }

            @Override
            public Optional<JobPreview> preview(JobContext context) {
                previewed.add(context.jobId() + "@" + context.occurrence());
                return Optional.of(counts);
            }
        };
    }

    Deadline deadline() {
        return Deadline.fromRemaining(clock.peek(), Duration.ofMinutes(5));
    }

    StructuredLog log() {
        return new StructuredLog(lines::add, clock, "punctual", Redactor.standard()).forInvocation("req-1", false);
    }

    InvocationResult invoke(String payload) {
        return runtime.handle(payload, deadline(), log());
    }

    static String scheduled(String job, Instant at) {
        return "{\"kind\":\"scheduled\",\"job\":\"" + job + "\",\"scheduled_time\":\"" + at
                + "\",\"execution_id\":\"" + UUID.randomUUID() + "\",\"attempt_number\":\"1\","
                + "\"schedule_arn\":\"arn:aws:scheduler:us-east-1:123456789012:schedule/punctual-dev/" + job + "\"}";
    }

    /**
     * An entity's delivery as the scheduler fills its schedule's input ({@link ScheduledPayload#forEntity}):
     * the time, a new execution id (the scheduler's is new on every attempt), attempt 1, the schedule's ARN.
     */
    static String scheduled(dev.punctual.entity.EntitySchedule schedule, Instant at) {
        Map<String, Object> input = new java.util.LinkedHashMap<>(ScheduledPayload.forEntity(schedule));
        input.put(ScheduledPayload.SCHEDULED_TIME, at.toString());
        input.put(ScheduledPayload.EXECUTION_ID, UUID.randomUUID().toString());
        input.put(ScheduledPayload.ATTEMPT_NUMBER, "1");
        input.put(
                ScheduledPayload.SCHEDULE_ARN,
                "arn:aws:scheduler:us-east-1:123456789012:schedule/punctual-dev-entities/" + schedule.name());
        return dev.punctual.json.Json.write(input);
    }

    List<JsonNode> outcomeLines() {
        List<JsonNode> out = new ArrayList<>();
        for (String line : lines) {
            try {
                JsonNode node = JSON.readTree(line);
                if ("occurrence outcome".equals(node.path("message").asText())) {
                    out.add(node);
                }
            } catch (IOException e) {
                throw new AssertionError("log line is not JSON: " + line, e);
            }
        }
        return out;
    }
}
