package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobServices;
import dev.punctual.job.LongJob;
import dev.punctual.job.LongRun;
import dev.punctual.json.Json;
import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.longrun.LongRunNames;
import dev.punctual.longrun.testkit.InMemoryExecutions;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Reason;
import dev.punctual.runtime.longrun.OccurrenceEnded;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A long job through the runtime (decision 0039): the claim, the start under the claim's name, the steps
 * carried out by the local driver as the state machine would, and the outcome folded back under the fence.
 * Run on every ledger.
 */
public abstract class LongJobContract {

    protected abstract RunLedger ledger(MutableClock clock);

    /** 23:00 UTC on 2027-01-31: month-end close. */
    static final Instant AT = Instant.parse("2027-01-31T23:00:00Z");

    static final String JOB = "month-end-close";
    static final String ENTITY_JOB = "tenant-export";

    /** The runtime with a long job whose plan, chunks and failures a test sets. */
    final class Fixture {
        final MutableClock clock = new MutableClock(AT.plusSeconds(1));
        final RunLedger ledger = ledger(clock);
        final InMemoryExecutions engine = new InMemoryExecutions(clock);
        final List<String> lines = new CopyOnWriteArrayList<>();
        final List<String> ran = new CopyOnWriteArrayList<>();
        final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
        volatile List<String> plan = List.of("acme", "globex", "initech");
        final AtomicReference<PunctualRuntime> built = new AtomicReference<>();
        final PunctualRuntime runtime;

        /** Set to make the engine lose the next start: it throws, as a start whose answer never came back. */
        volatile boolean loseNextStart;

        Fixture(boolean drive) {
            StructuredLog log = log();
            LongExecutions losing = new LongExecutions() {
                @Override
                public Start start(String jobId, String name, String input) {
                    if (loseNextStart) {
                        loseNextStart = false;
                        throw new dev.punctual.longrun.LongExecutionException("connection reset before the answer");
                    }
                    return engine.start(jobId, name, input);
                }

                @Override
                public String arnOf(String jobId, String name) {
                    return engine.arnOf(jobId, name);
                }

                @Override
                public Optional<Execution> describe(String jobId, String name) {
                    return engine.describe(jobId, name);
                }

                @Override
                public boolean stop(String jobId, String name, String cause) {
                    return engine.stop(jobId, name, cause);
                }
            };
            LongExecutions executions =
                    drive ? new LocalExecutionDriver(losing, built::get, log, clock, clock::advance) : losing;
            JobCatalog catalog = JobCatalog.of(
                            JobDefinition.builder(JOB)
                                    .schedule("0 23 * * *", "UTC")
                                    .runsLong(
                                            LongRun.within(Duration.ofHours(6)).chunksAtOnce(2))
                                    .maxAttempts(3)
                                    .job(services -> new Close())
                                    .build(),
                            JobDefinition.builder(ENTITY_JOB)
                                    .schedule("0 2 * * *", "UTC")
                                    .perEntity(EntityJob.parameters("region"))
                                    .runsLong(LongRun.within(Duration.ofHours(1)))
                                    .job(services -> new Close())
                                    .build())
                    .plus(List.of(MissedRunWatchdog.definition()));
            runtime = new PunctualRuntime(new RuntimeServices(
                    catalog,
                    ledger,
                    StageFlags.defaultsFor("dev"),
                    event -> {},
                    clock,
                    clock::advance,
                    new JobServices(
                            clock,
                            catalog,
                            new LedgerHistory(ledger, dev.punctual.ledger.DueIndex.NONE),
                            new LifecycleOverdueReports(event -> {}, "dev")),
                    message -> {
                        throw new IllegalStateException("no delivery in these tests");
                    },
                    new SettableConditionProbe(),
                    executions));
            built.set(runtime);
        }

        final class Close implements LongJob {
            @Override
            public List<String> plan(JobContext context) {
                return plan;
            }

            @Override
            public JobResult chunk(JobContext context, String key) {
                ran.add(key + "@" + context.fence());
                AtomicInteger left = failuresLeft.get(key);
                if (left != null && left.getAndDecrement() > 0) {
                    throw new IllegalStateException("ledger of " + key + " locked");
                }
                return JobResult.of("tenant", key);
            }

            @Override
            public JobResult finish(JobContext context, ChunkTally tally) {
                return JobResult.of("closed", tally.succeeded());
            }
        }

        StructuredLog log() {
            return new StructuredLog(lines::add, clock, "punctual", Redactor.standard()).forInvocation("req-1", false);
        }

        InvocationResult deliver(Instant at) {
            return runtime.handle(RuntimeFixture.scheduled(JOB, at), deadline(), log());
        }

        Deadline deadline() {
            return Deadline.fromRemaining(clock.peek(), Duration.ofMinutes(5));
        }

        String step(String step, String chunk) {
            ExecutionRecord noted =
                    ledger.longRuns().execution(new RunKey(JOB, AT)).orElseThrow();
            Object claim =
                    claimOf(engine.describe(JOB, noted.name()).orElseThrow().input());
            return runtime.step(
                    Json.write(LocalExecutionDriver.payload(step, claim, noted.arn(), chunk)), deadline(), log());
        }

        /** A step of the first execution ever started, with the claim its input carried. */
        String stepOfFirstExecution(String step, String chunk) {
            LongExecutions.Execution first = engine.executions().get(0);
            return runtime.step(
                    Json.write(LocalExecutionDriver.payload(step, claimOf(first.input()), first.arn(), chunk)),
                    deadline(),
                    log());
        }

        List<JsonNode> outcomes() {
            List<JsonNode> out = new ArrayList<>();
            for (String line : lines) {
                try {
                    JsonNode node = RuntimeFixture.JSON.readTree(line);
                    if ("occurrence outcome".equals(node.path("message").asText())) {
                        out.add(node);
                    }
                } catch (java.io.IOException e) {
                    throw new AssertionError(line, e);
                }
            }
            return out;
        }

        RunRecord run() {
            return ledger.run(new RunKey(JOB, AT)).orElseThrow();
        }

        List<ChunkRecord> chunks() {
            return ledger.longRuns().chunks(new RunKey(JOB, AT));
        }
    }

    private static Object claimOf(String input) {
        try {
            return ((Map<?, ?>) Json.read(input)).get("claim");
        } catch (Json.NotJsonException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void a_delivery_starts_one_execution_named_by_the_claim_and_every_chunk_runs_once_then_the_occurrence_succeeds() {
        Fixture f = new Fixture(true);

        InvocationResult result = f.deliver(AT);

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.STARTED);
            assertThat(o.detail())
                    .matches("execution dev-month-end-close-20270131T2300Z-f" + o.fence() + "-[0-9a-f]{6}");
        });
        assertThat(f.engine.executions())
                .singleElement()
                .satisfies(e -> assertThat(e.name())
                        .isEqualTo(LongRunNames.execution(
                                "dev",
                                JOB,
                                AT,
                                Optional.empty(),
                                f.run().fence(),
                                f.run().ownerToken())));
        assertThat(f.ran)
                .extracting(r -> r.substring(0, r.indexOf('@')))
                .containsExactlyInAnyOrder("acme", "globex", "initech");
        assertThat(f.run().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(f.run().resultSummary()).contains("\"chunks\":3").contains("\"closed\":3");
        assertThat(f.chunks()).extracting(ChunkRecord::chunk).containsExactly("acme", "globex", "initech");
        assertThat(f.chunks()).allSatisfy(c -> {
            assertThat(c.succeeded()).isTrue();
            assertThat(c.attempts()).isEqualTo(1);
        });
        assertThat(f.ledger.lock(JOB).leaseHeldAt(f.clock.peek())).isFalse();
        assertThat(f.ledger.cursor(JOB)).contains(AT);
        // The local driver carries the execution out inside the start, so its OK is logged before the STARTED.
        assertThat(f.outcomes()).extracting(l -> l.get("reason").asText()).containsExactlyInAnyOrder("STARTED", "OK");
    }

    @Test
    void while_the_execution_runs_the_group_stays_held_and_a_duplicate_delivery_starts_nothing() {
        Fixture f = new Fixture(false);

        f.deliver(AT);
        f.clock.advance(Duration.ofMinutes(30)); // past any short lease: the execution's bound holds the group
        InvocationResult again = f.deliver(AT);

        assertThat(again.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.IN_PROGRESS_ELSEWHERE));
        assertThat(f.engine.starts()).hasSize(1);
        assertThat(f.run().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(f.ledger.lock(JOB).leaseUntil())
                .isAfterOrEqualTo(AT.plus(Duration.ofHours(6)).plus(LongRun.LEASE_SLACK));
        assertThat(f.ledger.longRuns().execution(new RunKey(JOB, AT))).hasValueSatisfying(e -> {
            assertThat(e.arn()).isEqualTo(f.engine.executions().get(0).arn());
            assertThat(e.planned()).isEqualTo(ExecutionRecord.NOT_PLANNED);
        });
    }

    @Test
    void a_chunk_that_fails_once_is_retried_and_recorded_once_with_two_attempts() {
        Fixture f = new Fixture(true);
        f.failuresLeft.put("globex", new AtomicInteger(1));

        f.deliver(AT);

        assertThat(f.run().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(f.chunks())
                .filteredOn(c -> c.chunk().equals("globex"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.succeeded()).isTrue();
                    assertThat(c.attempts()).isEqualTo(2);
                });
        assertThat(f.ran).filteredOn(r -> r.startsWith("globex@")).hasSize(2);
    }

    @Test
    void a_chunk_failing_every_attempt_fails_the_occurrence_naming_it_and_releases_the_group() {
        Fixture f = new Fixture(true);
        f.failuresLeft.put("initech", new AtomicInteger(99));

        f.deliver(AT);

        assertThat(f.run().status()).isEqualTo(RunStatus.FAILED);
        assertThat(f.run().errorSummary())
                .contains("chunk initech failed after 3 attempts")
                .contains("locked");
        assertThat(f.ledger.lock(JOB).leaseHeldAt(f.clock.peek())).isFalse();
        assertThat(f.outcomes()).extracting(l -> l.get("reason").asText()).contains("CHUNK_FAILED");
    }

    @Test
    void a_retry_of_a_failed_occurrence_starts_a_new_execution_and_runs_only_the_chunks_not_recorded() {
        Fixture f = new Fixture(true);
        f.failuresLeft.put("initech", new AtomicInteger(3));
        f.deliver(AT);
        assertThat(f.run().status()).isEqualTo(RunStatus.FAILED);
        f.ran.clear();

        InvocationResult retry = f.runtime.handle(
                "{\"kind\":\"run\",\"job\":\"" + JOB + "\",\"at\":\"" + AT + "\"}", f.deadline(), f.log());

        assertThat(retry.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.STARTED));
        assertThat(f.engine.executions()).hasSize(2);
        assertThat(f.engine.executions().get(1).name())
                .isNotEqualTo(f.engine.executions().get(0).name());
        assertThat(f.ran).extracting(r -> r.substring(0, r.indexOf('@'))).containsExactly("initech");
        assertThat(f.run().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void a_redelivered_chunk_step_does_not_run_the_chunk_again() {
        Fixture f = new Fixture(false);
        f.deliver(AT);
        f.step("plan", null);
        f.step("chunk", "acme");

        String again = f.step("chunk", "acme");

        assertThat(again).contains("\"recorded_before\":true");
        assertThat(f.ran).containsExactly("acme@" + f.run().fence());
        assertThat(f.chunks())
                .singleElement()
                .satisfies(c -> assertThat(c.attempts()).isEqualTo(1));
    }

    @Test
    void a_step_whose_claim_was_taken_over_runs_nothing_and_records_nothing() {
        Fixture f = new Fixture(false);
        f.deliver(AT);
        f.step("plan", null);
        // The execution's bound passes (its timeout came and nothing recorded it); a replay claims again.
        f.clock.advance(Duration.ofHours(7));
        f.runtime.handle("{\"kind\":\"run\",\"job\":\"" + JOB + "\",\"at\":\"" + AT + "\"}", f.deadline(), f.log());
        List<String> before = List.copyOf(f.ran);

        assertThatThrownBy(() -> f.stepOfFirstExecution("chunk", "acme")).isInstanceOf(OccurrenceEnded.class);
        assertThat(f.ran).isEqualTo(before);
        assertThat(f.chunks()).isEmpty();
    }

    @Test
    void an_execution_that_timed_out_is_recorded_from_its_status_event_once() {
        Fixture f = new Fixture(false);
        f.deliver(AT);
        ExecutionRecord noted =
                f.ledger.longRuns().execution(new RunKey(JOB, AT)).orElseThrow();
        LongExecutions.Execution closed =
                f.engine.close(JOB, noted.name(), LongExecutions.Status.TIMED_OUT, "States.Timeout", null);

        String first = f.runtime.step(statusEvent(closed), f.deadline(), f.log());
        String second = f.runtime.step(statusEvent(closed), f.deadline(), f.log());

        assertThat(first).contains("\"recorded\":true");
        assertThat(second).contains("\"recorded\":false");
        assertThat(f.run().status()).isEqualTo(RunStatus.FAILED);
        assertThat(f.run().errorSummary()).contains(noted.name() + " TIMED_OUT: States.Timeout");
        assertThat(f.ledger.lock(JOB).leaseHeldAt(f.clock.peek())).isFalse();
        assertThat(f.outcomes())
                .extracting(l -> l.get("reason").asText())
                .containsExactly("STARTED", "EXECUTION_FAILED");
    }

    @Test
    void a_stop_by_cancel_is_recorded_from_its_status_event_as_cancelled_with_who_and_why_and_pages_nobody() {
        Fixture f = new Fixture(false);
        f.deliver(AT);
        ExecutionRecord noted =
                f.ledger.longRuns().execution(new RunKey(JOB, AT)).orElseThrow();
        f.engine.stop(JOB, noted.name(), "CANCELLED by ana: wrong FX rates loaded");

        f.runtime.step(statusEvent(f.engine.describe(JOB, noted.name()).orElseThrow()), f.deadline(), f.log());

        assertThat(f.run().status()).isEqualTo(RunStatus.FAILED);
        assertThat(f.run().errorSummary()).contains("CANCELLED by ana: wrong FX rates loaded");
        assertThat(f.outcomes()).last().satisfies(line -> {
            assertThat(line.get("reason").asText()).isEqualTo("CANCELLED");
            assertThat(line.get("outcome").asText()).isEqualTo(dev.punctual.outcome.Verdict.SKIP.name());
        });
        assertThat(f.ledger.lock(JOB).leaseHeldAt(f.clock.peek())).isFalse();
    }

    @Test
    void a_plan_over_the_chunk_bound_or_with_a_key_twice_fails_the_occurrence_saying_which() {
        Fixture f = new Fixture(true);
        f.plan = List.of("acme", "acme");

        f.deliver(AT);

        assertThat(f.run().status()).isEqualTo(RunStatus.FAILED);
        assertThat(f.run().errorSummary()).contains("plan refused: chunk key 'acme' is listed twice");
        assertThat(LongSteps.refusedPlan(java.util.Collections.nCopies(LongRun.MAX_CHUNKS + 1, "k")))
                .hasValueSatisfying(why -> assertThat(why).contains("at most 1000"));
        assertThat(LongSteps.refusedPlan(List.of("has space")))
                .hasValueSatisfying(why -> assertThat(why).contains("'has space' is not accepted"));
    }

    @Test
    void an_entitys_long_occurrence_runs_under_the_entitys_own_ledger_id_and_name() {
        Fixture f = new Fixture(true);
        Instant at = Instant.parse("2027-02-01T02:00:00Z");
        f.clock.advance(Duration.between(f.clock.peek(), at.plusSeconds(1)));
        EntitySchedule acme = EntitySchedule.of(
                f.runtime.services().catalog().find(ENTITY_JOB).orElseThrow(),
                "acme",
                null,
                "Europe/Berlin",
                Map.of("region", "eu"));
        Instant berlin = Instant.parse("2027-02-01T01:00:00Z"); // 02:00 in Berlin

        InvocationResult result = f.runtime.handle(RuntimeFixture.scheduled(acme, berlin), f.deadline(), f.log());

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.STARTED));
        RunKey key = new RunKey(ENTITY_JOB + ":acme", berlin);
        assertThat(f.ledger.run(key))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        assertThat(f.ledger.longRuns().chunks(key)).hasSize(3);
        assertThat(f.engine.executions())
                .singleElement()
                .satisfies(e -> assertThat(e.name()).startsWith("dev-" + ENTITY_JOB + "-20270201T0100Z-acme-f"));
    }

    @Test
    void the_watchdogs_sweep_records_an_execution_that_ended_without_its_event_reaching_the_function() {
        Fixture f = new Fixture(false);
        f.deliver(AT);
        ExecutionRecord noted =
                f.ledger.longRuns().execution(new RunKey(JOB, AT)).orElseThrow();
        f.engine.close(
                JOB, noted.name(), LongExecutions.Status.FAILED, "States.Runtime", "a state's input was malformed");
        f.clock.advance(Duration.ofMinutes(7));

        f.runtime.handle(
                RuntimeFixture.scheduled(MissedRunWatchdog.ID, AT.plus(Duration.ofMinutes(7))), f.deadline(), f.log());

        assertThat(f.run().status()).isEqualTo(RunStatus.FAILED);
        assertThat(f.run().errorSummary()).contains(noted.name() + " FAILED: States.Runtime");
        assertThat(f.ledger.lock(JOB).leaseHeldAt(f.clock.peek())).isFalse();
        assertThat(f.lines).anyMatch(l -> l.contains("\"long sweep\"") && l.contains("recorded FAILED"));
    }

    @Test
    void a_start_whose_answer_was_lost_keeps_the_claim_and_the_sweep_starts_it_under_the_same_name_once() {
        Fixture f = new Fixture(true);
        f.loseNextStart = true;

        InvocationResult lost = f.deliver(AT);
        f.clock.advance(Duration.ofMinutes(2));
        InvocationResult retry = f.deliver(AT); // Lambda's retry of the failed delivery: the claim is still held
        f.clock.advance(Duration.ofMinutes(5));
        f.runtime.handle(
                RuntimeFixture.scheduled(MissedRunWatchdog.ID, AT.plus(Duration.ofMinutes(7))), f.deadline(), f.log());

        assertThat(lost.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.JOB_ERROR);
            assertThat(o.detail()).contains("the execution's start is unknown");
        });
        assertThat(retry.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.IN_PROGRESS_ELSEWHERE));
        ExecutionRecord noted =
                f.ledger.longRuns().execution(new RunKey(JOB, AT)).orElseThrow();
        assertThat(f.engine.executions())
                .singleElement()
                .satisfies(e -> assertThat(e.name()).isEqualTo(noted.name()));
        assertThat(f.run().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(f.chunks())
                .hasSize(3)
                .allSatisfy(c -> assertThat(c.attempts()).isEqualTo(1));
    }

    private static String statusEvent(LongExecutions.Execution e) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("executionArn", e.arn());
        detail.put("name", e.name());
        detail.put("status", e.status().name());
        detail.put("input", e.input());
        detail.put("error", e.error().orElse(null));
        detail.put("cause", e.cause().orElse(null));
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("version", "0");
        event.put("detail-type", "Step Functions Execution Status Change");
        event.put("source", "aws.states");
        event.put("detail", detail);
        return Json.write(event);
    }
}
