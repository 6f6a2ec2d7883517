package dev.punctual.infra;

import dev.punctual.job.JobDefinition;
import dev.punctual.job.LongRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Amazon States Language definition of one long job's state machine (decision 0039, 4): {@code Plan}
 * then an inline {@code Chunks} map then {@code Finish}, each a {@code lambda:invoke} of the job's pool
 * function with a {@code long_step} payload. The pool function's ARN is the placeholder
 * {@value #FUNCTION_PLACEHOLDER}, which the template fills in (DefinitionSubstitutions): the definition is
 * then a pure function of the job's limits, and the same bytes on every synth.
 *
 * @param timeoutSeconds the execution's timeout: the job's {@code maxDuration}
 * @param chunksAtOnce the map's MaxConcurrency
 * @param maxAttempts the job's attempts of one chunk: the chunk task retries a failed attempt
 *     {@code maxAttempts - 1} times
 */
record LongJobDefinition(String jobId, long timeoutSeconds, int chunksAtOnce, int maxAttempts) {

    /** The substitution key of the pool function's ARN. */
    static final String FUNCTION_KEY = "PoolFunction";

    static final String FUNCTION_PLACEHOLDER = "${" + FUNCTION_KEY + "}";

    static final String LAMBDA_INVOKE = "arn:aws:states:::lambda:invoke";

    /** Lambda's transient errors, which every task retries whatever the job's attempts (decision 0039, 4). */
    static final List<String> LAMBDA_TRANSIENT = List.of(
            "Lambda.ServiceException",
            "Lambda.AWSLambdaException",
            "Lambda.SdkClientException",
            "Lambda.TooManyRequestsException");

    /**
     * What a chunk attempt that may be tried again ends in: the step handler's own failure (its class name
     * is the error Lambda reports), the invocation timing out, or the task's own timeout. Not
     * {@code OccurrenceEnded}: a chunk out of attempts, or a lease no longer the claim's, ends the execution.
     */
    static final List<String> CHUNK_RETRIED =
            List.of("dev.punctual.runtime.longrun.ChunkAttemptFailed", "Sandbox.Timedout", "States.Timeout");

    static final int LAMBDA_RETRY_INTERVAL_SECONDS = 2;
    static final int LAMBDA_RETRY_ATTEMPTS = 6;
    static final int CHUNK_RETRY_INTERVAL_SECONDS = 2;
    static final int BACKOFF_RATE = 2;

    /** The definition of {@code job}'s state machine; the job must run long. */
    static LongJobDefinition of(JobDefinition job) {
        if (!job.isLong()) {
            throw new IllegalArgumentException("job " + job.id() + " does not run long");
        }
        LongRun limits = job.longRun();
        return new LongJobDefinition(
                job.id(), limits.maxDuration().toSeconds(), limits.chunksAtOnce(), job.maxAttempts());
    }

    /** The definition as the state machine's DefinitionString, with {@value #FUNCTION_PLACEHOLDER} in it. */
    String json() {
        return AslJson.render(asl());
    }

    /** The definition as a tree of maps (in the order written), lists, strings and numbers. */
    Map<String, Object> asl() {
        Map<String, Object> states = new LinkedHashMap<>();
        states.put("Plan", plan());
        states.put("Chunks", chunks());
        states.put("Finish", finish());
        Map<String, Object> asl = new LinkedHashMap<>();
        asl.put("Comment", "Punctual long job " + jobId + ": plan, chunks, finish (docs/decisions/0039)");
        asl.put("StartAt", "Plan");
        asl.put("TimeoutSeconds", timeoutSeconds);
        asl.put("States", states);
        return asl;
    }

    private Map<String, Object> plan() {
        Map<String, Object> selector = new LinkedHashMap<>();
        selector.put("chunks.$", "$.Payload.chunks");
        Map<String, Object> plan = invoke(step("plan"));
        plan.put("ResultSelector", selector);
        plan.put("ResultPath", "$.plan");
        plan.put("Retry", List.of(lambdaRetrier()));
        plan.put("Next", "Chunks");
        return plan;
    }

    /**
     * An inline map over the plan's keys. The map's result is dropped ({@code ResultPath} null: the
     * ledger holds the chunks' outcomes), and each iteration keeps only its chunk key, so a thousand
     * chunks' answers never near the 256 KiB a state may hold.
     */
    private Map<String, Object> chunks() {
        Map<String, Object> chunkTask = invokeInput();
        Map<String, Object> kept = new LinkedHashMap<>();
        kept.put("chunk.$", "$.Payload.chunk");
        chunkTask.put("ResultSelector", kept);
        List<Object> retriers = new ArrayList<>();
        retriers.add(lambdaRetrier());
        if (maxAttempts > 1) {
            retriers.add(retrier(CHUNK_RETRIED, CHUNK_RETRY_INTERVAL_SECONDS, maxAttempts - 1));
        }
        chunkTask.put("Retry", retriers);
        chunkTask.put("End", true);
        Map<String, Object> processorStates = new LinkedHashMap<>();
        processorStates.put("Chunk", chunkTask);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("Mode", "INLINE");
        Map<String, Object> processor = new LinkedHashMap<>();
        processor.put("ProcessorConfig", config);
        processor.put("StartAt", "Chunk");
        processor.put("States", processorStates);

        Map<String, Object> item = new LinkedHashMap<>();
        item.put("kind", "long_step");
        item.put("step", "chunk");
        item.put("claim.$", "$.claim");
        item.put("chunk.$", "$$.Map.Item.Value");
        item.put("execution.$", "$$.Execution.Id");

        Map<String, Object> map = new LinkedHashMap<>();
        map.put("Type", "Map");
        map.put("ItemsPath", "$.plan.chunks");
        map.put("MaxConcurrency", chunksAtOnce);
        map.put("ItemSelector", item);
        map.put("ItemProcessor", processor);
        map.put("ResultPath", null);
        map.put("Next", "Finish");
        return map;
    }

    private Map<String, Object> finish() {
        Map<String, Object> finish = invoke(step("finish"));
        finish.put("Retry", List.of(lambdaRetrier()));
        finish.put("End", true);
        return finish;
    }

    /** A step's payload: its kind, the step, the claim from the execution's input, and the execution's ARN. */
    private static Map<String, Object> step(String step) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("kind", "long_step");
        payload.put("step", step);
        payload.put("claim.$", "$.claim");
        payload.put("execution.$", "$$.Execution.Id");
        return payload;
    }

    private static Map<String, Object> invoke(Map<String, Object> payload) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("FunctionName", FUNCTION_PLACEHOLDER);
        parameters.put("Payload", payload);
        return task(parameters);
    }

    /** The chunk task: the map's item, as the item selector built it, is the payload. */
    private static Map<String, Object> invokeInput() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("FunctionName", FUNCTION_PLACEHOLDER);
        parameters.put("Payload.$", "$");
        return task(parameters);
    }

    private static Map<String, Object> task(Map<String, Object> parameters) {
        Map<String, Object> task = new LinkedHashMap<>();
        task.put("Type", "Task");
        task.put("Resource", LAMBDA_INVOKE);
        task.put("Parameters", parameters);
        return task;
    }

    private static Map<String, Object> lambdaRetrier() {
        return retrier(LAMBDA_TRANSIENT, LAMBDA_RETRY_INTERVAL_SECONDS, LAMBDA_RETRY_ATTEMPTS);
    }

    private static Map<String, Object> retrier(List<String> errors, int intervalSeconds, int attempts) {
        Map<String, Object> retrier = new LinkedHashMap<>();
        retrier.put("ErrorEquals", errors);
        retrier.put("IntervalSeconds", intervalSeconds);
        retrier.put("MaxAttempts", attempts);
        retrier.put("BackoffRate", BACKOFF_RATE);
        return retrier;
    }
}
