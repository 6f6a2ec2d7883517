package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageFlags;
import dev.punctual.testing.FakeLambdaContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Lambda entry point, driven as Lambda drives it, against the emulator. */
class PunctualHandlerTest {

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    @Test
    void handler_withMalformedPayload_returnsInvalidWithoutThrowing() throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        PunctualHandler handler = handler(stage);

        JsonNode result = invoke(handler, "{\"kind\":\"scheduled\",\"job\":\"" + FixtureCatalog.DAILY + "\"}");

        assertThat(result.get("status").asText()).isEqualTo("INVALID");
        assertThat(result.at("/error/code").asText()).isEqualTo("MISSING_FIELD");
        assertThat(result.at("/error/field").asText()).isEqualTo("scheduled_time");
        assertThat(stage.lines).anySatisfy(l -> assertThat(l).contains("\"function_request_id\":\"req-42\""));
    }

    @Test
    void handler_scheduledPass_returnsCountsAndOccurrences() throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);

        JsonNode result = invoke(handler(stage), """
                {"kind":"scheduled","job":"%s","scheduled_time":"2026-11-30T14:00:00Z","attempt_number":"1"}""".formatted(FixtureCatalog.DAILY));

        assertThat(result.get("status").asText()).isEqualTo("OK");
        assertThat(result.at("/counts/pass").asInt()).isEqualTo(1);
        assertThat(result.at("/occurrences/0/local").asText()).isEqualTo("2026-11-30T09:00:00-05:00");
    }

    @Test
    void handler_whenTheJobsTableIsMissing_recordsTheFailure_thenThrowsSoLambdaRetries() throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        stage.clients.dynamo().deleteTable(b -> b.tableName(stage.table(FixtureCatalog.RECORDS)));
        PunctualHandler handler = handler(stage);

        assertThatThrownBy(() -> invoke(handler, """
                        {"kind":"scheduled","job":"%s","scheduled_time":"2026-11-30T14:00:00Z"}""".formatted(FixtureCatalog.DAILY)))
                .isInstanceOf(RetryPolicy.RetryableRunFailure.class)
                .hasMessageContaining(FixtureCatalog.DAILY + "@2026-11-30T14:00:00Z JOB_ERROR attempt 1");
        assertThat(stage.lines).anySatisfy(l -> assertThat(l).contains("\"outcome\":\"FAIL\"", "JOB_ERROR"));
    }

    @Test
    void handler_whenTheLedgerIsUnreachable_writesOneStructuredFaultLineWithTheRequestId_thenRethrows() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        stage.clients.dynamo().deleteTable(b -> b.tableName(stage.ledgerTable));
        PunctualHandler handler = handler(stage);

        assertThatThrownBy(() -> invoke(handler, """
                        {"kind":"scheduled","job":"%s","scheduled_time":"2026-11-30T14:00:00Z"}""".formatted(FixtureCatalog.DAILY)))
                .isInstanceOf(RuntimeException.class);
        assertThat(stage.lines)
                .filteredOn(l -> l.contains("invocation fault"))
                .singleElement()
                .satisfies(l -> assertThat(l)
                        .contains("\"level\":\"ERROR\"", "\"function_request_id\":\"req-42\"", "error_type")
                        .contains("\"at\":\"dev.punctual."));
    }

    @Test
    void handler_withTheStagesSkewToleranceInItsEnvironment_givesEachInvocationALeaseThatMuchPastItsEnd() {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        SkewTolerance fromEnvironment = SkewTolerance.fromEnvironment(Map.of(SkewTolerance.ENV, "10000"));
        PunctualHandler handler = new PunctualHandler(
                stage.runtime,
                new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard()),
                stage.clock,
                fromEnvironment);

        Deadline deadline = handler.deadline(new FakeLambdaContext("req-42", 300_000));

        assertThat(deadline.skewTolerance()).isEqualTo(Duration.ofSeconds(10));
        assertThat(deadline.leaseUntil())
                .isEqualTo(stage.clock.instant().plus(Duration.ofMinutes(5)).plusSeconds(10));
        assertThat(handler(stage)
                        .deadline(new FakeLambdaContext("req-43", 300_000))
                        .skewTolerance())
                .as("without the variable: the 2 s default")
                .isEqualTo(Duration.ofSeconds(2));
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
                new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)),
                out,
                new FakeLambdaContext("req-42", 300_000));
        return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
    }
}
