package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.job.JobDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The state machine of a long job, as decision 0039 (4) describes it, rendered the same on every synth. */
class LongJobDefinitionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<String> LAMBDA_TRANSIENT = List.of(
            "Lambda.ServiceException",
            "Lambda.AWSLambdaException",
            "Lambda.SdkClientException",
            "Lambda.TooManyRequestsException");

    @Test
    void aLongJob_runsPlanThenChunksThenFinish_withinItsMaxDuration() throws Exception {
        JsonNode asl = parse(LongJobs.job("month-end", Duration.ofHours(6), 3, 3));

        assertThat(asl.path("StartAt").asText()).isEqualTo("Plan");
        assertThat(asl.path("TimeoutSeconds").asLong()).isEqualTo(6 * 3600);
        assertThat(names(asl.path("States"))).containsExactly("Plan", "Chunks", "Finish");
        assertThat(asl.at("/States/Plan/Next").asText()).isEqualTo("Chunks");
        assertThat(asl.at("/States/Chunks/Next").asText()).isEqualTo("Finish");
        assertThat(asl.at("/States/Finish/End").asBoolean()).isTrue();
    }

    @Test
    void plan_invokesThePoolFunction_withThePlanStep_andKeepsOnlyTheChunksAtPlan() throws Exception {
        JsonNode plan =
                parse(LongJobs.job("month-end", Duration.ofHours(6), 3, 3)).at("/States/Plan");

        assertThat(plan.path("Type").asText()).isEqualTo("Task");
        assertThat(plan.path("Resource").asText()).isEqualTo("arn:aws:states:::lambda:invoke");
        assertThat(plan.at("/Parameters/FunctionName").asText()).isEqualTo("${PoolFunction}");
        assertThat(object(plan.at("/Parameters/Payload")))
                .containsExactlyEntriesOf(ordered(
                        "kind", "long_step",
                        "step", "plan",
                        "claim.$", "$.claim",
                        "execution.$", "$$.Execution.Id"));
        assertThat(object(plan.path("ResultSelector")))
                .containsExactlyEntriesOf(ordered("chunks.$", "$.Payload.chunks"));
        assertThat(plan.path("ResultPath").asText()).isEqualTo("$.plan");
    }

    @Test
    void chunks_isAnInlineMapOverThePlannedKeys_chunksAtOnceAtATime_droppingItsResult() throws Exception {
        JsonNode chunks =
                parse(LongJobs.job("month-end", Duration.ofHours(6), 3, 3)).at("/States/Chunks");

        assertThat(chunks.path("Type").asText()).isEqualTo("Map");
        assertThat(chunks.path("ItemsPath").asText()).isEqualTo("$.plan.chunks");
        assertThat(chunks.path("MaxConcurrency").asInt()).isEqualTo(3);
        assertThat(chunks.at("/ItemProcessor/ProcessorConfig/Mode").asText()).isEqualTo("INLINE");
        assertThat(chunks.has("ResultPath")).isTrue();
        assertThat(chunks.path("ResultPath").isNull()).isTrue();
        assertThat(object(chunks.path("ItemSelector")))
                .containsExactlyEntriesOf(ordered(
                        "kind", "long_step",
                        "step", "chunk",
                        "claim.$", "$.claim",
                        "chunk.$", "$$.Map.Item.Value",
                        "execution.$", "$$.Execution.Id"));
        JsonNode chunk = chunks.at("/ItemProcessor/States/Chunk");
        assertThat(chunks.at("/ItemProcessor/StartAt").asText()).isEqualTo("Chunk");
        assertThat(chunk.path("Resource").asText()).isEqualTo("arn:aws:states:::lambda:invoke");
        assertThat(chunk.at("/Parameters/FunctionName").asText()).isEqualTo("${PoolFunction}");
        assertThat(chunk.at("/Parameters/Payload.$").asText()).isEqualTo("$");
        assertThat(chunk.path("End").asBoolean()).isTrue();
    }

    @Test
    void finish_invokesThePoolFunction_withTheFinishStep_andEnds() throws Exception {
        JsonNode finish =
                parse(LongJobs.job("month-end", Duration.ofHours(6), 3, 3)).at("/States/Finish");

        assertThat(finish.at("/Parameters/FunctionName").asText()).isEqualTo("${PoolFunction}");
        assertThat(object(finish.at("/Parameters/Payload")))
                .containsExactlyEntriesOf(ordered(
                        "kind", "long_step",
                        "step", "finish",
                        "claim.$", "$.claim",
                        "execution.$", "$$.Execution.Id"));
        assertThat(finish.path("End").asBoolean()).isTrue();
    }

    @Test
    void everyTask_retriesLambdasTransientErrors_sixTimes_twoSecondsDoubling() throws Exception {
        JsonNode asl = parse(LongJobs.job("month-end", Duration.ofHours(6), 3, 3));

        for (String task : List.of("/States/Plan", "/States/Chunks/ItemProcessor/States/Chunk", "/States/Finish")) {
            JsonNode first = asl.at(task + "/Retry/0");
            assertThat(strings(first.path("ErrorEquals"))).as(task).isEqualTo(LAMBDA_TRANSIENT);
            assertThat(first.path("IntervalSeconds").asInt()).as(task).isEqualTo(2);
            assertThat(first.path("MaxAttempts").asInt()).as(task).isEqualTo(6);
            assertThat(first.path("BackoffRate").asInt()).as(task).isEqualTo(2);
        }
        assertThat(asl.at("/States/Plan/Retry").size()).isEqualTo(1);
        assertThat(asl.at("/States/Finish/Retry").size()).isEqualTo(1);
    }

    @Test
    void theChunkTask_retriesAFailedAttempt_maxAttemptsMinusOneTimes() throws Exception {
        JsonNode retry = parse(LongJobs.job("month-end", Duration.ofHours(6), 3, 4))
                .at("/States/Chunks/ItemProcessor/States/Chunk/Retry");

        assertThat(retry.size()).isEqualTo(2);
        assertThat(strings(retry.at("/1/ErrorEquals")))
                .containsExactly(
                        "dev.punctual.runtime.longrun.ChunkAttemptFailed", "Sandbox.Timedout", "States.Timeout");
        assertThat(retry.at("/1/MaxAttempts").asInt()).isEqualTo(3);
        assertThat(retry.at("/1/IntervalSeconds").asInt()).isEqualTo(2);
        assertThat(retry.at("/1/BackoffRate").asInt()).isEqualTo(2);
    }

    @Test
    void aJobOfOneAttempt_neverRetriesAChunk_onlyLambdasTransientErrors() throws Exception {
        JsonNode retry = parse(LongJobs.job("month-end", Duration.ofHours(6), 3, 1))
                .at("/States/Chunks/ItemProcessor/States/Chunk/Retry");

        assertThat(retry.size()).isEqualTo(1);
        assertThat(strings(retry.at("/0/ErrorEquals"))).isEqualTo(LAMBDA_TRANSIENT);
    }

    /** Pinned byte for byte: a change shows in review as a change to the deployed state machine. */
    @Test
    void theRenderedDefinition_isTheSameBytesEveryTime() {
        String json = LongJobDefinition.of(LongJobs.job("nightly", Duration.ofMinutes(30), 2, 2))
                .json();

        assertThat(json)
                .isEqualTo(LongJobDefinition.of(LongJobs.job("nightly", Duration.ofMinutes(30), 2, 2))
                        .json())
                .isEqualTo("{\"Comment\":\"Punctual long job nightly: plan, chunks, finish (docs/decisions/0039)\","
                        + "\"StartAt\":\"Plan\",\"TimeoutSeconds\":1800,\"States\":{"
                        + "\"Plan\":{\"Type\":\"Task\",\"Resource\":\"arn:aws:states:::lambda:invoke\",\"Parameters\":"
                        + "{\"FunctionName\":\"${PoolFunction}\",\"Payload\":{\"kind\":\"long_step\",\"step\":\"plan\","
                        + "\"claim.$\":\"$.claim\",\"execution.$\":\"$$.Execution.Id\"}},\"ResultSelector\":"
                        + "{\"chunks.$\":\"$.Payload.chunks\"},\"ResultPath\":\"$.plan\",\"Retry\":[" + LAMBDA_RETRY
                        + "],\"Next\":\"Chunks\"},"
                        + "\"Chunks\":{\"Type\":\"Map\",\"ItemsPath\":\"$.plan.chunks\",\"MaxConcurrency\":2,"
                        + "\"ItemSelector\":{\"kind\":\"long_step\",\"step\":\"chunk\",\"claim.$\":\"$.claim\","
                        + "\"chunk.$\":\"$$.Map.Item.Value\",\"execution.$\":\"$$.Execution.Id\"},\"ItemProcessor\":"
                        + "{\"ProcessorConfig\":{\"Mode\":\"INLINE\"},\"StartAt\":\"Chunk\",\"States\":{\"Chunk\":"
                        + "{\"Type\":\"Task\",\"Resource\":\"arn:aws:states:::lambda:invoke\",\"Parameters\":"
                        + "{\"FunctionName\":\"${PoolFunction}\",\"Payload.$\":\"$\"},\"ResultSelector\":"
                        + "{\"chunk.$\":\"$.Payload.chunk\"},\"Retry\":[" + LAMBDA_RETRY + ",{\"ErrorEquals\":"
                        + "[\"dev.punctual.runtime.longrun.ChunkAttemptFailed\",\"Sandbox.Timedout\","
                        + "\"States.Timeout\"],\"IntervalSeconds\":2,\"MaxAttempts\":1,\"BackoffRate\":2}],"
                        + "\"End\":true}}},\"ResultPath\":null,\"Next\":\"Finish\"},"
                        + "\"Finish\":{\"Type\":\"Task\",\"Resource\":\"arn:aws:states:::lambda:invoke\",\"Parameters\":"
                        + "{\"FunctionName\":\"${PoolFunction}\",\"Payload\":{\"kind\":\"long_step\",\"step\":\"finish\","
                        + "\"claim.$\":\"$.claim\",\"execution.$\":\"$$.Execution.Id\"}},\"Retry\":[" + LAMBDA_RETRY
                        + "],\"End\":true}}}");
    }

    @Test
    void aShortJob_hasNoStateMachineDefinition() {
        JobDefinition shortJob = JobDefinition.builder("report")
                .schedule("0 * * * *", "UTC")
                .job(services -> context -> dev.punctual.job.JobResult.empty())
                .build();

        assertThatThrownBy(() -> LongJobDefinition.of(shortJob))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("report");
    }

    @Test
    void aslJson_escapesQuotesBackslashesAndControlCharacters() {
        assertThat(AslJson.render(List.of("a\"b\\c\nd\u0001", 7, true)))
                .isEqualTo("[\"a\\\"b\\\\c\\nd\\u0001\",7,true]");
    }

    private static final String LAMBDA_RETRY = "{\"ErrorEquals\":[\"Lambda.ServiceException\","
            + "\"Lambda.AWSLambdaException\",\"Lambda.SdkClientException\",\"Lambda.TooManyRequestsException\"],"
            + "\"IntervalSeconds\":2,\"MaxAttempts\":6,\"BackoffRate\":2}";

    private static JsonNode parse(JobDefinition job) throws Exception {
        return JSON.readTree(LongJobDefinition.of(job).json());
    }

    private static Map<String, Object> object(JsonNode node) {
        return JSON.convertValue(node, new TypeReference<java.util.LinkedHashMap<String, Object>>() {});
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    private static Map<String, Object> ordered(String... pairs) {
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
