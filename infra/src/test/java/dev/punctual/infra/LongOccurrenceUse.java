package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobServices;
import dev.punctual.job.LongJob;
import dev.punctual.job.LongRun;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.longrun.testkit.InMemoryExecutions;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.ConditionProbe;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.LedgerHistory;
import dev.punctual.runtime.LocalExecutionDriver;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.RuntimeServices;
import dev.punctual.stage.StageFlags;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What one long occurrence (decision 0039) really sends and writes, measured on moto: its scheduled
 * delivery (claim, extension, note, start) and the execution's steps (plan, each chunk, finish), driven by
 * {@link LocalExecutionDriver} through the runtime's own step handler as Step Functions would invoke them.
 * The occurrence is the second of a daily job, after its cursor, as the short job's figures are.
 *
 * @param sent every ledger request of the occurrence, priced by {@link LedgerCapacity}
 * @param lines the runtime's log lines (the local driver's own retry notes left out: on AWS Step Functions
 *     retries, and writes nothing to the function's logs)
 * @param events lifecycle events put on the bus
 */
record LongOccurrenceUse(List<LedgerCapacity.Sent> sent, List<String> lines, int events) {

    static final String JOB = "close-books";
    static final int MAX_ATTEMPTS = 3;
    static final Instant TWO = Instant.parse("2026-11-30T02:00:00Z");

    /** The line the local driver writes where Step Functions would retry: not the function's line on AWS. */
    static final String LOCAL_RETRY = "local execution retries a chunk";

    /** {@code chunks} chunks of fixed-width keys ({@code tenant-0000}); the first fails once when asked. */
    static LongOccurrenceUse measure(int chunks, boolean firstFailsOnce) {
        Tenants tenants = new Tenants(chunks, firstFailsOnce);
        JobCatalog catalog = new JobCatalog(List.of(JobDefinition.builder(JOB)
                        .schedule("0 2 * * *", "UTC")
                        .maxAttempts(MAX_ATTEMPTS)
                        .runsLong(LongRun.within(Duration.ofHours(6)).chunksAtOnce(4))
                        .job(services -> tenants)
                        .build()))
                .plus(List.of(MissedRunWatchdog.definition()));
        Instant yesterday = TWO.minus(Duration.ofDays(1));
        MutableClock clock = new MutableClock(yesterday.plusSeconds(2));
        String table = TestTables.uniqueName(LongOccurrenceUse.class, "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        LedgerCapacity capacity = new LedgerCapacity(DynamoDbHarness.client(), table);
        List<String> lines = new CopyOnWriteArrayList<>();
        AtomicInteger events = new AtomicInteger();
        try (DynamoDbClient client = DynamoDbHarness.newClient(
                builder -> builder.overrideConfiguration(c -> c.addExecutionInterceptor(capacity)))) {
            RunLedger ledger = DynamoDbRunLedger.create(
                    client, table, clock, () -> UUID.randomUUID().toString(), Retention.DEFAULT, clock::advance);
            StructuredLog log = new StructuredLog(lines::add, clock, "punctual", Redactor.standard());
            AtomicReference<PunctualRuntime> built = new AtomicReference<>();
            PunctualRuntime runtime = new PunctualRuntime(new RuntimeServices(
                    catalog,
                    ledger,
                    StageFlags.defaultsFor("prod"),
                    event -> events.incrementAndGet(),
                    clock,
                    clock::advance,
                    new JobServices(clock, catalog, new LedgerHistory(ledger)),
                    message -> new DeliveryReceipt.Sent(message.channel(), message.recipient()),
                    ConditionProbe.UNAVAILABLE,
                    new LocalExecutionDriver(new InMemoryExecutions(clock), built::get, log, clock)));
            built.set(runtime);

            // Yesterday's occurrence sets the cursor; today's, in steady state, is the one measured.
            deliver(runtime, log, clock, yesterday);
            tenants.reset();
            clock.advance(Duration.ofDays(1));
            capacity.clear();
            lines.clear();
            events.set(0);
            deliver(runtime, log, clock, TWO);

            assertThat(ledger.run(new RunKey(JOB, TWO)))
                    .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
            List<LedgerCapacity.Sent> sent = capacity.sent();
            List<String> logged =
                    lines.stream().filter(l -> !l.contains(LOCAL_RETRY)).toList();
            return new LongOccurrenceUse(sent, logged, events.get());
        } finally {
            DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
        }
    }

    private static void deliver(PunctualRuntime runtime, StructuredLog log, MutableClock clock, Instant occurrence) {
        String payload = "{\"kind\":\"scheduled\",\"job\":\"" + JOB + "\",\"scheduled_time\":\"" + occurrence
                + "\",\"execution_id\":\"" + UUID.randomUUID() + "\",\"attempt_number\":\"1\"}";
        InvocationResult result = runtime.handle(
                payload,
                Deadline.fromRemaining(clock.peek(), Duration.ofMinutes(5)),
                log.forInvocation("cost-" + UUID.randomUUID(), false));
        assertThat(result.valid()).as(payload + ": " + result.error()).isTrue();
        assertThat(result.occurrences())
                .extracting(o -> o.verdict().name() + " " + o.reason().wire())
                .containsExactly("PASS STARTED");
    }

    /** Requests of one DynamoDB operation. */
    long requests(String operation) {
        return sent.stream().filter(s -> s.operation().equals(operation)).count();
    }

    int writeUnits() {
        return sent.stream().mapToInt(LedgerCapacity.Sent::writeUnits).sum();
    }

    /** Read units of the GetItems; the Query's are counted apart, being a rounding of a total size. */
    double getReadUnits() {
        return sent.stream()
                .filter(s -> s.operation().equals("GetItem"))
                .mapToDouble(LedgerCapacity.Sent::readUnits)
                .sum();
    }

    /** The bytes the Queries of the occurrence returned (the finish's read of the chunk records). */
    int queryBytes() {
        return sent.stream()
                .filter(s -> s.operation().equals("Query"))
                .mapToInt(LedgerCapacity.Sent::bytes)
                .sum();
    }

    long failedRequests() {
        return sent.stream().filter(LedgerCapacity.Sent::failed).count();
    }

    /** Lines whose message is {@code message}. */
    List<String> linesOf(String message) {
        return lines.stream()
                .filter(l -> l.contains("\"message\":\"" + message + "\""))
                .toList();
    }

    /** Plans {@code count} tenants; the first fails its first attempt when asked. */
    static final class Tenants implements LongJob {
        private final int count;
        private final boolean firstFailsOnce;
        private final Set<String> failed = ConcurrentHashMap.newKeySet();

        Tenants(int count, boolean firstFailsOnce) {
            this.count = count;
            this.firstFailsOnce = firstFailsOnce;
        }

        void reset() {
            failed.clear();
        }

        @Override
        public List<String> plan(JobContext context) {
            return IntStream.range(0, count)
                    .mapToObj(i -> String.format("tenant-%04d", i))
                    .toList();
        }

        @Override
        public JobResult chunk(JobContext context, String key) {
            if (firstFailsOnce && key.equals("tenant-0000") && failed.add(key)) {
                throw new IllegalStateException("the first attempt fails");
            }
            return JobResult.empty();
        }
    }
}
