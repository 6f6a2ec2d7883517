package dev.punctual.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.events.eventbridge.EventBridgeLifecyclePublisher;
import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

/** Against the emulator's EventBridge: events go out with the documented shape; failures never throw. */
class EventBridgeLifecyclePublisherTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant OCCURRENCE = Instant.parse("2026-11-29T14:00:00Z");

    private final List<String> lines = new ArrayList<>();
    private final List<PutEventsRequestEntry> sent = new ArrayList<>();
    private final StructuredLog log = new StructuredLog(lines::add, Clock.systemUTC(), "punctual", Redactor.standard());

    @Test
    void publish_runFailedToExistingBus_sendsRedactedDetail_andLogsNothing() throws Exception {
        try (EventBridgeClient client = client(DynamoDbHarness.backend().endpoint())) {
            String bus = TestTables.uniqueName(getClass(), "bus");
            client.createEventBus(b -> b.name(bus));

            new EventBridgeLifecyclePublisher(client, bus, log)
                    .publish(new LifecycleEvent.RunFailed(
                            "dev",
                            FixtureCatalog.DAILY,
                            OCCURRENCE.atZone(java.time.ZoneId.of("America/New_York")),
                            "SCHEDULED",
                            "JOB_ERROR",
                            "login password=hunter2",
                            3,
                            3,
                            true));

            assertThat(lines).isEmpty();
            assertThat(sent).singleElement().satisfies(entry -> {
                assertThat(entry.source()).isEqualTo("punctual");
                assertThat(entry.detailType()).isEqualTo("Punctual Run Failed");
                assertThat(entry.eventBusName()).isEqualTo(bus);
            });
            JsonNode detail = JSON.readTree(sent.get(0).detail());
            assertThat(detail.get("job").asText()).isEqualTo(FixtureCatalog.DAILY);
            assertThat(detail.get("occurrence").asText()).isEqualTo("2026-11-29T14:00:00Z");
            assertThat(detail.get("error").asText()).doesNotContain("hunter2");
        }
    }

    @Test
    void publish_whenEndpointUnreachable_doesNotThrow_andLogsOneWarning() {
        try (EventBridgeClient client = client(URI.create("http://127.0.0.1:1"))) {
            new EventBridgeLifecyclePublisher(client, "punctual-dev", log)
                    .publish(new LifecycleEvent.OccurrencesMissed(
                            "dev",
                            FixtureCatalog.QUARTER_HOURLY,
                            OCCURRENCE,
                            OCCURRENCE.plusSeconds(3600),
                            5,
                            java.time.ZoneOffset.UTC));

            assertThat(lines)
                    .singleElement()
                    .satisfies(line -> assertThat(line)
                            .contains(
                                    "\"level\":\"WARN\"",
                                    "lifecycle event not published",
                                    "Punctual Occurrences Missed"));
        }
    }

    @Test
    void publish_onBehalfOfAnInvocation_warnsOnItsLog_withItsRequestId() {
        try (EventBridgeClient client = client(URI.create("http://127.0.0.1:1"))) {
            new EventBridgeLifecyclePublisher(client, "punctual-dev", log)
                    .publish(
                            new LifecycleEvent.OccurrenceOverdue(
                                    "dev", "report", OCCURRENCE.atZone(java.time.ZoneOffset.UTC), "NOT_DELIVERED"),
                            log.forInvocation("req-42", false));

            assertThat(lines)
                    .singleElement()
                    .satisfies(line -> assertThat(line)
                            .contains("\"function_request_id\":\"req-42\"", "lifecycle event not published"));
        }
    }

    private EventBridgeClient client(URI endpoint) {
        return EventBridgeClient.builder()
                .endpointOverride(endpoint)
                .region(DynamoDbHarness.REGION)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")))
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(2))
                        .build())
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD)
                        .addExecutionInterceptor(new ExecutionInterceptor() {
                            @Override
                            public void beforeExecution(
                                    Context.BeforeExecution context, ExecutionAttributes attributes) {
                                if (context.request() instanceof PutEventsRequest put) {
                                    sent.addAll(put.entries());
                                }
                            }
                        }))
                .build();
    }
}
