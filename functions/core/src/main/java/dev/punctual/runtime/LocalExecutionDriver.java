package dev.punctual.runtime;

import dev.punctual.job.JobDefinition;
import dev.punctual.json.Json;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.longrun.ChunkAttemptFailed;
import dev.punctual.runtime.longrun.OccurrenceEnded;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Runs long occurrences' executions on this machine (decision 0039, 6): the engine (moto's Step Functions,
 * or a test's) answers the starts with Step Functions' name semantics, and this driver then carries out
 * what the deployed state machine would: plan, the chunks ({@code chunksAtOnce} at a time, each retried up
 * to the job's {@code maxAttempts} when its attempt failed), finish, through the runtime's own step
 * handler with the same payloads. An execution that ends otherwise is told to the runtime as its
 * status-change event would be. The drive happens in the starter's call, so a command ends with it.
 */
public final class LocalExecutionDriver implements LongExecutions {

    private final LongExecutions engine;
    private final Supplier<PunctualRuntime> runtime;
    private final StructuredLog log;
    private final Clock clock;
    private final dev.punctual.ledger.Sleeper sleeper;

    /** The state machine's chunk retrier: 2 s, doubling (decision 0039, 4). */
    static final Duration FIRST_RETRY = Duration.ofSeconds(2);

    /**
     * @param runtime the runtime whose steps carry the executions out (built after this driver, which it
     *     holds as its engine)
     */
    public LocalExecutionDriver(
            LongExecutions engine, Supplier<PunctualRuntime> runtime, StructuredLog log, Clock clock) {
        this(engine, runtime, log, clock, duration -> {});
    }

    /** @param sleeper waits the retrier's back-off between a chunk's attempts (a test's moves its clock) */
    public LocalExecutionDriver(
            LongExecutions engine,
            Supplier<PunctualRuntime> runtime,
            StructuredLog log,
            Clock clock,
            dev.punctual.ledger.Sleeper sleeper) {
        this.engine = engine;
        this.runtime = runtime;
        this.log = log;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    @Override
    public Start start(String jobId, String name, String input) {
        Start answer = engine.start(jobId, name, input);
        if (answer instanceof Start.Started started) {
            drive(jobId, name, started.arn(), input);
        }
        return answer;
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

    private void drive(String jobId, String name, String arn, String input) {
        PunctualRuntime steps = runtime.get();
        JobDefinition job = steps.services().catalog().find(jobId).orElseThrow();
        Object claim = claimOf(input);
        try {
            Object planned = ((Map<?, ?>) Json.read(step(steps, payload("plan", claim, arn, null)))).get("chunks");
            List<?> keys = planned instanceof List<?> list ? list : List.of();
            if (!chunks(steps, job, claim, arn, keys)) {
                return;
            }
            step(steps, payload("finish", claim, arn, null));
        } catch (OccurrenceEnded ended) {
            // Recorded by the step that ended it (or nothing to record: a moved fence), as on AWS.
        } catch (RuntimeException | Json.NotJsonException fault) {
            statusChanged(steps, name, arn, input, "FAILED", fault);
        }
    }

    /** The chunks, {@code chunksAtOnce} at a time; false when one ended the occurrence. */
    private boolean chunks(PunctualRuntime steps, JobDefinition job, Object claim, String arn, List<?> keys) {
        AtomicBoolean ended = new AtomicBoolean();
        ExecutorService pool =
                Executors.newFixedThreadPool(Math.max(1, job.longRun().chunksAtOnce()));
        try {
            List<Future<?>> running = new ArrayList<>();
            for (Object key : keys) {
                running.add(pool.submit(() -> {
                    if (!ended.get()) {
                        runChunk(steps, job, claim, arn, String.valueOf(key), ended);
                    }
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended.set(true);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return !ended.get();
    }

    /** One chunk with the state machine's retries: attempts of {@link ChunkAttemptFailed} up to maxAttempts. */
    private void runChunk(
            PunctualRuntime steps, JobDefinition job, Object claim, String arn, String key, AtomicBoolean ended) {
        for (int attempt = 1; attempt <= job.maxAttempts(); attempt++) {
            try {
                step(steps, payload("chunk", claim, arn, key));
                return;
            } catch (ChunkAttemptFailed failed) {
                if (attempt < job.maxAttempts() && !backOff(attempt)) {
                    ended.set(true);
                    return;
                }
            } catch (OccurrenceEnded over) {
                ended.set(true);
                return;
            }
        }
        ended.set(true);
    }

    /** Waits the retrier's back-off after failed attempt {@code attempt}; false when interrupted. */
    private boolean backOff(int attempt) {
        try {
            sleeper.sleep(FIRST_RETRY.multipliedBy(1L << (attempt - 1)));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String step(PunctualRuntime steps, Map<String, Object> payload) {
        Deadline deadline = Deadline.fromRemaining(clock.instant(), Duration.ofMinutes(15));
        return steps.step(Json.write(payload), deadline, log);
    }

    /**
     * A step's payload as the state machine sends it (decision 0039, 3): {@code kind}, {@code step}, the
     * execution's {@code claim}, a chunk's {@code chunk}, the execution's ARN.
     */
    public static Map<String, Object> payload(String step, Object claim, String arn, String chunk) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("kind", LongSteps.KIND);
        payload.put("step", step);
        payload.put("claim", claim);
        if (chunk != null) {
            payload.put("chunk", chunk);
        }
        payload.put("execution", arn);
        return payload;
    }

    private void statusChanged(
            PunctualRuntime steps, String name, String arn, String input, String status, Exception why) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("executionArn", arn);
        detail.put("name", name);
        detail.put("status", status);
        detail.put("input", input);
        detail.put("error", why.getClass().getSimpleName());
        detail.put("cause", String.valueOf(why.getMessage()));
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("detail-type", LongSteps.STATUS_CHANGE);
        event.put("source", "aws.states");
        event.put("detail", detail);
        step(steps, event);
    }

    private static Object claimOf(String input) {
        try {
            return ((Map<?, ?>) Json.read(input)).get("claim");
        } catch (Json.NotJsonException e) {
            throw new IllegalStateException("an execution's input is not JSON: " + e.getMessage(), e);
        }
    }
}
