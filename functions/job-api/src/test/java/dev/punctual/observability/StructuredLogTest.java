package dev.punctual.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StructuredLogTest {

    private static final Instant NOW = Instant.parse("2026-11-29T14:00:03.250Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> lines = new ArrayList<>();
    private final StructuredLog log =
            new StructuredLog(lines::add, Clock.fixed(NOW, ZoneOffset.UTC), "punctual", Redactor.standard());

    @Test
    void line_forInvocation_carriesPowertoolsKeysThenOwnFields() throws Exception {
        log.forInvocation("req-1", true).info("occurrence outcome", Map.of("job", "nightly-summary", "fence", 7));

        assertThat(lines).hasSize(1);
        JsonNode line = JSON.readTree(lines.get(0));
        assertThat(line.get("timestamp").asText()).isEqualTo("2026-11-29T14:00:03.250Z");
        assertThat(line.get("level").asText()).isEqualTo("INFO");
        assertThat(line.get("service").asText()).isEqualTo("punctual");
        assertThat(line.get("function_request_id").asText()).isEqualTo("req-1");
        assertThat(line.get("cold_start").asBoolean()).isTrue();
        assertThat(line.get("job").asText()).isEqualTo("nightly-summary");
        assertThat(line.get("fence").asLong()).isEqualTo(7);
    }

    @Test
    void line_withSecretsInMessageAndFields_neverShowsThem() {
        log.error(
                "job failed: jdbc password=hunter2-secret",
                Map.of("error", "Authorization: Bearer abcdefghijklmnop", "apiKey", "k-123456"));

        assertThat(lines.get(0)).doesNotContain("hunter2-secret", "abcdefghijklmnop", "k-123456");
    }

    @Test
    void metricsLine_isValidEmf_withDimensionsAndValuesAsTopLevelFields() throws Exception {
        log.metrics(
                StructuredLog.Level.INFO,
                "occurrence outcome",
                Map.of("outcome", "PASS"),
                Map.of("stage", "dev", "job", "nightly-summary"),
                List.of(Metric.count("Pass", 1), Metric.millis("DurationMs", 830)));

        JsonNode line = JSON.readTree(lines.get(0));
        JsonNode directive = line.at("/_aws/CloudWatchMetrics/0");
        assertThat(line.at("/_aws/Timestamp").asLong()).isEqualTo(NOW.toEpochMilli());
        assertThat(directive.get("Namespace").asText()).isEqualTo("Punctual");
        assertThat(directive.at("/Dimensions/0").toString()).contains("\"stage\"", "\"job\"");
        assertThat(directive.get("Metrics").toString())
                .contains(
                        "{\"Name\":\"Pass\",\"Unit\":\"Count\"}",
                        "{\"Name\":\"DurationMs\",\"Unit\":\"Milliseconds\"}");
        assertThat(line.get("Pass").isIntegralNumber()).isTrue();
        assertThat(line.get("DurationMs").asLong()).isEqualTo(830);
        assertThat(line.get("stage").asText()).isEqualTo("dev");
        assertThat(line.get("job").asText()).isEqualTo("nightly-summary");
    }

    @Test
    void line_outsideAnInvocation_hasNoRequestKeys() throws Exception {
        log.info("cli", Map.of());

        JsonNode line = JSON.readTree(lines.get(0));
        assertThat(line.has("function_request_id")).isFalse();
        assertThat(line.has("cold_start")).isFalse();
    }
}
