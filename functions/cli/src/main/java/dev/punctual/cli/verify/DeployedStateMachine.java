package dev.punctual.cli.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.runtime.longrun.ChunkAttemptFailed;

/**
 * The fields of a deployed long job's state machine that the catalog sets, as DescribeStateMachine answers
 * them. A field the definition lacks is null, so it differs from any catalog value.
 *
 * @param name the state machine's name
 * @param type STANDARD or EXPRESS
 * @param timeoutSeconds the definition's top-level TimeoutSeconds
 * @param maxConcurrency the {@code Chunks} state's MaxConcurrency
 * @param chunkRetries the MaxAttempts of the {@code Chunks} map's task retrier that names
 *     {@code ChunkAttemptFailed}; 0 when the map's tasks have no such retrier, null when there is no map
 */
public record DeployedStateMachine(
        String name, String type, Long timeoutSeconds, Integer maxConcurrency, Integer chunkRetries) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The error a chunk attempt that may be tried again ends in: the step handler's exception's class name. */
    static final String CHUNK_ERROR = ChunkAttemptFailed.class.getName();

    /** States Language's MaxAttempts when a retrier does not say. */
    private static final int DEFAULT_MAX_ATTEMPTS = 3;

    /** Reads the fields from the state machine's definition (Amazon States Language). */
    public static DeployedStateMachine of(String name, String type, String definition) {
        JsonNode asl;
        try {
            asl = JSON.readTree(definition);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "state machine " + name + ": its definition is not JSON: " + e.getOriginalMessage());
        }
        JsonNode chunks = asl.path("States").path("Chunks");
        return new DeployedStateMachine(
                name,
                type,
                asl.path("TimeoutSeconds").isIntegralNumber()
                        ? asl.path("TimeoutSeconds").asLong()
                        : null,
                chunks.path("MaxConcurrency").isIntegralNumber()
                        ? chunks.path("MaxConcurrency").asInt()
                        : null,
                chunks.isObject() ? chunkRetries(chunks) : null);
    }

    /** The retrier of ChunkAttemptFailed among the map's tasks (ItemProcessor, or the older Iterator). */
    private static int chunkRetries(JsonNode map) {
        JsonNode processor = map.has("ItemProcessor") ? map.path("ItemProcessor") : map.path("Iterator");
        for (JsonNode state : processor.path("States")) {
            for (JsonNode retrier : state.path("Retry")) {
                for (JsonNode error : retrier.path("ErrorEquals")) {
                    if (error.asText().equals(CHUNK_ERROR)) {
                        return retrier.path("MaxAttempts").isIntegralNumber()
                                ? retrier.path("MaxAttempts").asInt()
                                : DEFAULT_MAX_ATTEMPTS;
                    }
                }
            }
        }
        return 0;
    }
}
