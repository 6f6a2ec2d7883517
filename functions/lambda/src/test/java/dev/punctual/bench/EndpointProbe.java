package dev.punctual.bench;

import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

/**
 * Run by {@link LambdaJarIT} with the Lambda jar alone: builds both clients as a deployed function does
 * (no endpoint override, the region only) and prints where each request would go, stopping every
 * request before it is sent, so nothing reaches AWS.
 */
public final class EndpointProbe {

    private EndpointProbe() {}

    public static void main(String[] args) {
        Region region = Region.of(args[0]);
        StaticCredentialsProvider credentials =
                StaticCredentialsProvider.create(AwsBasicCredentials.create("probe", "probe"));
        try (DynamoDbClient dynamo = DynamoDbClient.builder()
                .region(region)
                .credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(new StopBeforeSending("dynamodb")))
                .build()) {
            send(() -> dynamo.getItem(b -> b.tableName("probe").key(Map.of("pk", AttributeValue.fromS("probe")))));
        }
        try (EventBridgeClient events = EventBridgeClient.builder()
                .region(region)
                .credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(new StopBeforeSending("events")))
                .build()) {
            PutEventsRequestEntry entry = PutEventsRequestEntry.builder()
                    .source("probe")
                    .detailType("probe")
                    .detail("{}")
                    .build();
            send(() -> events.putEvents(b -> b.entries(entry)));
        }
    }

    private static void send(Runnable request) {
        try {
            request.run();
            throw new IllegalStateException("a request was sent");
        } catch (Stopped expected) {
            // the request was resolved and stopped, as meant
        } catch (RuntimeException e) {
            if (!(e.getCause() instanceof Stopped)) {
                throw e;
            }
        }
    }

    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("stopped before sending", null, false, false);
        }
    }

    private record StopBeforeSending(String service) implements ExecutionInterceptor {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            System.out.println(service + " " + context.httpRequest().getUri());
            throw new Stopped();
        }
    }
}
