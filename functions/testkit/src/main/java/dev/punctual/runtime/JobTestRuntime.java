package dev.punctual.runtime;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.DeliveryMessage;
import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobServices;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A team's job tests run their jobs through Punctual's real runtime with this: the in-memory ledger, a
 * clock the test moves, a recording delivery port and the stage's safety flags. It answers what an
 * operator reads in the outcome line ({@code PASS OK}, {@code SKIP ALREADY_DONE}, ...), so a test states the
 * guarantee it relies on: a second delivery of one occurrence does not run the job again.
 */
public final class JobTestRuntime {

    /** How long after the scheduled time a delivery arrives in these tests (the scheduler is punctual-ish). */
    static final Duration DELIVERY_DELAY = Duration.ofSeconds(2);

    private final MutableClock clock;
    private final PunctualRuntime runtime;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<LifecycleEvent> events = new CopyOnWriteArrayList<>();
    private final List<DeliveryMessage> sent = new CopyOnWriteArrayList<>();
    private final JobCatalog catalog;
    private final RunLedger ledger;

    private final SettableConditionProbe conditions = new SettableConditionProbe();

    private JobTestRuntime(StageFlags flags, Instant start, List<JobDefinition> jobs) {
        this(flags, start, JobCatalog.of(jobs.toArray(JobDefinition[]::new)));
    }

    private JobTestRuntime(StageFlags flags, Instant start, JobCatalog catalog) {
        this.clock = new MutableClock(start);
        this.catalog = catalog;
        RunLedger ledger = RuntimeFixture.inMemory(clock);
        this.ledger = ledger;
        this.runtime = new PunctualRuntime(new RuntimeServices(
                catalog,
                ledger,
                flags,
                events::add,
                clock,
                clock::advance,
                new JobServices(clock, catalog, new LedgerHistory(ledger)),
                message -> {
                    sent.add(message);
                    return new DeliveryReceipt.Sent(message.channel(), message.recipient());
                },
                conditions));
    }

    /**
     * A whole catalog in a {@code dev} stage, its maintenance conditions included (decision 0036, 5):
     * each finds nothing until the test says otherwise through {@link #conditions()}.
     */
    public static JobTestRuntime dev(Instant start, JobCatalog catalog) {
        return new JobTestRuntime(StageFlags.defaultsFor("dev"), start, catalog);
    }

    /**
     * How the catalog's maintenance conditions answer: {@code conditions().findsData("synthetic-members")}
     * makes every later delivery skip as MAINTENANCE, {@code fails(...)} as MAINTENANCE_UNKNOWN.
     */
    public SettableConditionProbe conditions() {
        return conditions;
    }

    /** The jobs in a {@code dev} stage (delivery suppressed, destructive jobs refused), the clock at {@code start}. */
    public static JobTestRuntime dev(Instant start, JobDefinition... jobs) {
        return new JobTestRuntime(StageFlags.defaultsFor("dev"), start, List.of(jobs));
    }

    /** The jobs under the given stage flags, the clock at {@code start}. */
    public static JobTestRuntime withFlags(StageFlags flags, Instant start, JobDefinition... jobs) {
        return new JobTestRuntime(flags, start, List.of(jobs));
    }

    /**
     * Delivers the scheduler's payload for {@code job} at {@code occurrence}, moving the clock to just
     * after it first when it is earlier (a scheduler never delivers early).
     *
     * @return the outcome of that occurrence as the outcome line states it: {@code VERDICT[ REASON]}
     */
    public String deliver(String job, Instant occurrence) {
        requireOneSchedule(job);
        return outcomeOf(job, occurrence, RuntimeFixture.scheduled(job, occurrence));
    }

    /**
     * Delivers an entity's occurrence as the scheduler delivers it from the entity's schedule (its input:
     * the entity, its expression, zone and parameters), moving the clock as {@link #deliver} does.
     *
     * @param schedule the entity's schedule, as a put would give it: {@code EntitySchedule.of(job, "acme",
     *     null, "Europe/Paris", Map.of("locale", "fr"))}
     * @return the outcome of that occurrence: {@code VERDICT[ REASON]}
     */
    public String deliver(EntitySchedule schedule, Instant occurrence) {
        return outcomeOf(
                schedule.job() + " for entity " + schedule.entity(),
                occurrence,
                RuntimeFixture.scheduled(schedule, occurrence));
    }

    /** As {@link #deliverAll(String, Instant)}, for an entity's schedule: its catch-up is the entity's own. */
    public SequencedMap<Instant, String> deliverAll(EntitySchedule schedule, Instant occurrence) {
        moveToArrivalOf(occurrence);
        SequencedMap<Instant, String> outcomes = new LinkedHashMap<>();
        for (OccurrenceReport report :
                invoke(RuntimeFixture.scheduled(schedule, occurrence)).occurrences()) {
            outcomes.put(report.occurrence(), outcome(report));
        }
        return outcomes;
    }

    /** A per-entity job has no delivery of its own: say how to deliver one of its entities instead. */
    private void requireOneSchedule(String job) {
        catalog.find(job).filter(JobDefinition::isPerEntity).ifPresent(perEntity -> {
            throw new IllegalArgumentException(job + " runs per entity, so the scheduler never delivers it without"
                    + " one; deliver an entity's occurrence: deliver(EntitySchedule.of(job, \"acme\", null,"
                    + " \"Europe/Paris\", Map.of()), occurrence)");
        });
    }

    private String outcomeOf(String what, Instant occurrence, String payload) {
        moveToArrivalOf(occurrence);
        InvocationResult result = invoke(payload);
        return result.occurrences().stream()
                .filter(o -> o.occurrence().equals(occurrence))
                .map(JobTestRuntime::outcome)
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        "the delivery of " + what + " at " + occurrence + " reported no outcome for it: " + result));
    }

    /**
     * Delivers as {@link #deliver} does and reports every occurrence that one delivery handled, in the
     * order it handled them: the missed ones it caught up (within the job's catch-up policy) before the
     * delivered one. What it did not catch up is recorded as missed, not listed here ({@link #invoke}
     * returns it whole).
     *
     * @return each occurrence's outcome as the outcome line states it: {@code VERDICT[ REASON]}
     */
    public SequencedMap<Instant, String> deliverAll(String job, Instant occurrence) {
        requireOneSchedule(job);
        moveToArrivalOf(occurrence);
        SequencedMap<Instant, String> outcomes = new LinkedHashMap<>();
        for (OccurrenceReport report :
                invoke(RuntimeFixture.scheduled(job, occurrence)).occurrences()) {
            outcomes.put(report.occurrence(), outcome(report));
        }
        return outcomes;
    }

    /**
     * Moves the clock to {@code instant}, for any payload {@link #invoke} hands over next (a manual run
     * "now", a replay up to now). Never back: a ledger's leases and a job's history assume time only
     * moves on, so a test that needs an earlier time starts another runtime.
     */
    public void advanceTo(Instant instant) {
        if (instant.isBefore(clock.peek())) {
            throw new IllegalArgumentException("the clock is at " + clock.peek() + " and never moves back to " + instant
                    + "; start another JobTestRuntime for an earlier time");
        }
        clock.advance(Duration.between(clock.peek(), instant));
    }

    /** Moves the clock on by {@code duration} (zero or more). */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("the clock never moves back; got " + duration);
        }
        clock.advance(duration);
    }

    private void moveToArrivalOf(Instant occurrence) {
        Instant arrival = occurrence.plus(DELIVERY_DELAY);
        if (clock.peek().isBefore(arrival)) {
            clock.advance(Duration.between(clock.peek(), arrival));
        }
    }

    /** Hands any payload (the shapes of events/) to the runtime, as the Lambda handler does. */
    public InvocationResult invoke(String payload) {
        StructuredLog log = new StructuredLog(lines::add, clock, "punctual", Redactor.standard())
                .forInvocation("test-" + UUID.randomUUID(), false);
        return runtime.handle(payload, Deadline.fromRemaining(clock.peek(), Duration.ofMinutes(5)), log);
    }

    /** Every occurrence of the result as {@code VERDICT[ REASON]}, in the order they were handled. */
    public static String outcomes(InvocationResult result) {
        return result.occurrences().stream().map(JobTestRuntime::outcome).collect(Collectors.joining(", "));
    }

    /**
     * The in-memory ledger the runtime claims on, for what a test does beside the runtime on the same
     * ledger: an entity client's tombstones ({@code EntityTombstones.on(runtime.ledger(), "onboarding")}),
     * so a delete through the client is met by the next delivery as on a stage.
     */
    public RunLedger ledger() {
        return ledger;
    }

    public Instant now() {
        return clock.peek();
    }

    /** The structured log lines written so far (JSON, redacted as in production). */
    public List<String> logLines() {
        return List.copyOf(lines);
    }

    /** What the delivery port was asked to send where the stage enables delivery. */
    public List<DeliveryMessage> sent() {
        return List.copyOf(sent);
    }

    public List<LifecycleEvent> lifecycleEvents() {
        return List.copyOf(events);
    }

    private static String outcome(OccurrenceReport report) {
        return report.verdict().name() + " " + report.reason().wire();
    }
}
