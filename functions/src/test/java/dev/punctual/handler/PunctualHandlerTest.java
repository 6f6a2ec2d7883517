package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.stage.StageFlags;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The Lambda entry point, driven as Lambda drives it, against the emulator. */
class PunctualHandlerTest {

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    @Test
    void handler_withMalformedPayload_returnsInvalidWithoutThrowing() throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        PunctualHandler handler = handler(stage);

        JsonNode result = invoke(handler, "{\"kind\":\"scheduled\",\"job\":\"daily-report\"}");

        assertThat(result.get("status").asText()).isEqualTo("INVALID");
        assertThat(result.at("/error/code").asText()).isEqualTo("MISSING_FIELD");
        assertThat(result.at("/error/field").asText()).isEqualTo("scheduledTime");
        assertThat(stage.lines).anySatisfy(l -> assertThat(l).contains("\"function_request_id\":\"req-42\""));
    }

    @Test
    void handler_scheduledPass_returnsCountsAndOccurrences() throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);

        JsonNode result = invoke(handler(stage), """
                {"kind":"scheduled","job":"daily-report","scheduledTime":"2026-11-30T14:00:00Z","attemptNumber":"1"}""");

        assertThat(result.get("status").asText()).isEqualTo("OK");
        assertThat(result.at("/counts/pass").asInt()).isEqualTo(1);
        assertThat(result.at("/occurrences/0/local").asText()).isEqualTo("2026-11-30T09:00:00-05:00");
    }

    @Test
    void handler_whenDomainTableIsMissing_recordsTheFailure_thenThrowsSoLambdaRetries() throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        stage.clients.dynamo().deleteTable(b -> b.tableName(stage.domainTable));
        PunctualHandler handler = handler(stage);

        assertThatThrownBy(() -> invoke(handler, """
                        {"kind":"scheduled","job":"daily-report","scheduledTime":"2026-11-30T14:00:00Z"}"""))
                .isInstanceOf(RetryPolicy.RetryableRunFailure.class)
                .hasMessageContaining("daily-report@2026-11-30T14:00:00Z JOB_ERROR attempt 1");
        assertThat(stage.lines).anySatisfy(l -> assertThat(l).contains("\"outcome\":\"FAIL\"", "JOB_ERROR"));
    }

    private static PunctualHandler handler(EmulatorStage stage) {
        return new PunctualHandler(
                stage.runtime,
                new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard()),
                stage.clock);
    }

    private static JsonNode invoke(PunctualHandler handler, String payload) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(
                new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)), out, new FakeContext());
        return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
    }

    /** What Lambda passes; only the request id and the remaining time matter to Punctual. */
    private static final class FakeContext implements Context {
        @Override
        public String getAwsRequestId() {
            return "req-42";
        }

        @Override
        public int getRemainingTimeInMillis() {
            return 300_000;
        }

        @Override
        public String getLogGroupName() {
            return "/aws/lambda/punctual-dev-default";
        }

        @Override
        public String getLogStreamName() {
            return "stream";
        }

        @Override
        public String getFunctionName() {
            return "punctual-dev-default";
        }

        @Override
        public String getFunctionVersion() {
            return "1";
        }

        @Override
        public String getInvokedFunctionArn() {
            return "arn:aws:lambda:us-east-1:123456789012:function:punctual-dev-default:live";
        }

        @Override
        public CognitoIdentity getIdentity() {
            return null;
        }

        @Override
        public ClientContext getClientContext() {
            return null;
        }

        @Override
        public int getMemoryLimitInMB() {
            return 1024;
        }

        @Override
        public LambdaLogger getLogger() {
            return null;
        }
    }
}
