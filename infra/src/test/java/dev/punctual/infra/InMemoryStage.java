package dev.punctual.infra;

import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobServices;
import dev.punctual.job.RunHistory;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.InMemoryRunLedger;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.LedgerHistory;
import dev.punctual.runtime.LifecycleOverdueReports;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.RuntimeServices;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The real runtime on the in-memory ledger, with the watchdog, for infra tests that need what the code
 * emits: the lifecycle events, the log lines and how often the watchdog reads the ledger per job.
 */
final class InMemoryStage {

    final MutableClock clock;
    final List<LifecycleEvent> events = new ArrayList<>();
    final List<String> lines = new ArrayList<>();
    /** Ledger reads through the jobs' read-only history (what the watchdog does per job). */
    int historyReads;

    private final PunctualRuntime runtime;

    InMemoryStage(Instant start, JobDefinition... jobs) {
        clock = new MutableClock(start);
        RunLedger ledger = InMemoryRunLedger.create(clock);
        JobCatalog catalog = JobCatalog.of(jobs).plus(List.of(MissedRunWatchdog.definition()));
        RunHistory history = counting(new LedgerHistory(ledger));
        runtime = new PunctualRuntime(new RuntimeServices(
                catalog,
                ledger,
                StageFlags.defaultsFor("dev"),
                events::add,
                clock,
                clock::advance,
                new JobServices(clock, catalog, history, new LifecycleOverdueReports(events::add, "dev")),
                message -> {
                    throw new AssertionError("no delivery here");
                }));
    }

    /** Delivers the scheduled occurrence {@code at} (attempt {@code attempt}) a couple of seconds late. */
    void deliver(String job, Instant at, int attempt) {
        deliver(
                "{\"kind\":\"scheduled\",\"job\":\"" + job + "\",\"scheduled_time\":\"" + at + "\",\"execution_id\":\""
                        + UUID.randomUUID() + "\",\"attempt_number\":\"" + attempt + "\"}",
                at);
    }

    /** Delivers an entity's occurrence {@code at} from its schedule's input, a couple of seconds late. */
    void deliver(dev.punctual.entity.EntitySchedule schedule, Instant at) {
        java.util.Map<String, Object> input =
                new java.util.LinkedHashMap<>(dev.punctual.runtime.ScheduledPayload.forEntity(schedule));
        input.put(dev.punctual.runtime.ScheduledPayload.SCHEDULED_TIME, at.toString());
        input.put(
                dev.punctual.runtime.ScheduledPayload.EXECUTION_ID,
                UUID.randomUUID().toString());
        input.put(dev.punctual.runtime.ScheduledPayload.ATTEMPT_NUMBER, "1");
        input.put(
                dev.punctual.runtime.ScheduledPayload.SCHEDULE_ARN,
                "arn:aws:scheduler:us-east-1:123456789012:schedule/punctual-dev-entities/" + schedule.name());
        deliver(dev.punctual.json.Json.write(input), at);
    }

    private void deliver(String payload, Instant at) {
        Instant now = at.plusSeconds(2);
        if (now.isAfter(clock.peek())) {
            clock.advance(Duration.between(clock.peek(), now));
        }
        runtime.handle(
                payload,
                Deadline.fromRemaining(clock.peek(), Duration.ofMinutes(5)),
                new StructuredLog(lines::add, clock, "punctual", Redactor.standard())
                        .forInvocation(UUID.randomUUID().toString(), false));
    }

    private RunHistory counting(RunHistory history) {
        return new RunHistory() {
            @Override
            public Optional<Instant> cursor(String job) {
                historyReads++;
                return history.cursor(job);
            }

            @Override
            public boolean recorded(String job, Instant occurrence) {
                historyReads++;
                return history.recorded(job, occurrence);
            }

            @Override
            public Optional<String> resultSummary(String job, Instant occurrence) {
                historyReads++;
                return history.resultSummary(job, occurrence);
            }

            /** The freshness watch's read of a watched job's lock item (decision 0042). */
            @Override
            public Optional<Instant> lastSuccess(String job) {
                historyReads++;
                return history.lastSuccess(job);
            }
        };
    }
}
