package dev.punctual.handler;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.punctual.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The CloudFormation custom resource behind the Lambda console's shareable test events of one function
 * ({@code Custom::PunctualTestEvents}, one per pool, infra's {@code ConsoleTestEvents}): one
 * create-or-update of the function's schema in the account's {@code lambda-testevent-schemas} registry.
 *
 * <p>On Create and Update it makes sure the registry exists (CreateRegistry, "already exists" taken as
 * success: the registry is the account's, shared with the console and other stages), reads the schema
 * (DescribeSchema), creates it when there is none (a ConflictException from a concurrent creator is
 * taken as "there is one" and read again), writes this deploy's content with UpdateSchema only when
 * the content, type or description differ, and otherwise sends nothing: an unchanged update is never
 * sent, whatever the service would answer to one. Content is compared as JSON, so a service that
 * reformats it does not count as a change. On Delete it does nothing: the schema and the registry stay
 * (docs/deploy.md). Whatever happens, it answers CloudFormation at the event's {@code ResponseURL}
 * ({@code SUCCESS}, or {@code FAILED} with the refused call as the reason), so a deploy never waits
 * for a custom resource that crashed.
 *
 * <p>Resource properties: {@code RegistryName}, {@code RegistryDescription}, {@code SchemaName},
 * {@code Type}, {@code Description}, {@code Content}. The physical id is
 * {@code schema/<registry>/<schema>}; the response's data holds {@code SchemaVersion} and
 * {@code Written} ({@code created}, {@code updated} or {@code unchanged}).
 */
public final class ConsoleTestEventsHandler implements RequestStreamHandler {

    /** What a Create or Update did to the schema. */
    public enum Written {
        CREATED,
        UPDATED,
        UNCHANGED
    }

    private final SchemasApi schemas;
    private final SdkHttpClient http;
    private final Consumer<String> log;

    /** In Lambda: the function's region and credentials, the regional endpoint. */
    public ConsoleTestEventsHandler() {
        this(fromEnvironment(), client(), System.out::println);
    }

    /**
     * @param schemas the Schemas calls (a stand-in's endpoint in tests)
     * @param http where the answer to CloudFormation is sent from (a PUT to the event's ResponseURL)
     */
    public ConsoleTestEventsHandler(SchemasApi schemas, SdkHttpClient http, Consumer<String> log) {
        this.schemas = schemas;
        this.http = http;
        this.log = log;
    }

    private static SchemasApi fromEnvironment() {
        String region = Objects.requireNonNull(System.getenv("AWS_REGION"), "AWS_REGION");
        return new SchemasApi(
                client(),
                SchemasApi.endpointOf(region),
                region,
                DefaultCredentialsProvider.builder().build());
    }

    private static SdkHttpClient client() {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(10))
                .socketTimeout(Duration.ofSeconds(30))
                .build();
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        String text = new String(input.readAllBytes(), StandardCharsets.UTF_8);
        Map<String, Object> event;
        try {
            event = map(Json.read(text));
        } catch (Json.NotJsonException e) {
            log.accept("{\"level\":\"ERROR\",\"message\":\"not a CloudFormation event\"}");
            return; // no ResponseURL to answer at
        }
        Map<String, Object> response = handle(event);
        respond(string(event, "ResponseURL"), response);
        output.write(Json.write(response).getBytes(StandardCharsets.UTF_8));
    }

    /** The answer to CloudFormation for one event; never throws. */
    Map<String, Object> handle(Map<String, Object> event) {
        String requestType = string(event, "RequestType");
        Map<String, Object> properties = map(event.get("ResourceProperties"));
        String registry = string(properties, "RegistryName");
        String schema = string(properties, "SchemaName");
        String physicalId = "Delete".equals(requestType) && event.get("PhysicalResourceId") != null
                ? string(event, "PhysicalResourceId")
                : "schema/" + registry + "/" + schema;
        Map<String, Object> data = new LinkedHashMap<>();
        String status = "SUCCESS";
        String reason = "";
        try {
            if ("Create".equals(requestType) || "Update".equals(requestType)) {
                Outcome outcome = write(properties);
                data.put("SchemaVersion", outcome.version());
                data.put("Written", outcome.written().name().toLowerCase(java.util.Locale.ROOT));
                reason = schema + ": " + data.get("Written");
            } else {
                reason = "left in place: " + schema + " (the stage never deletes the console's test events)";
            }
        } catch (RuntimeException e) {
            status = "FAILED";
            reason = String.valueOf(e.getMessage());
        }
        log.accept(Json.write(Map.of(
                "level",
                "FAILED".equals(status) ? "ERROR" : "INFO",
                "message",
                "console test events",
                "request",
                String.valueOf(requestType),
                "status",
                status,
                "detail",
                reason)));
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("Status", status);
        response.put("Reason", reason.length() > 1000 ? reason.substring(0, 1000) : reason);
        response.put("PhysicalResourceId", physicalId);
        response.put("StackId", event.get("StackId"));
        response.put("RequestId", event.get("RequestId"));
        response.put("LogicalResourceId", event.get("LogicalResourceId"));
        response.put("NoEcho", false);
        response.put("Data", data);
        return response;
    }

    /** What writing the schema did, and the version it left as the latest. */
    public record Outcome(Written written, String version) {}

    /** The create-or-update itself. */
    public Outcome write(Map<String, Object> properties) {
        String registry = string(properties, "RegistryName");
        String schema = string(properties, "SchemaName");
        String type = string(properties, "Type");
        String content = string(properties, "Content");
        String description = string(properties, "Description");
        try {
            schemas.createRegistry(
                    registry,
                    Optional.ofNullable(string(properties, "RegistryDescription"))
                            .orElse(""));
        } catch (SchemasApi.Refused refused) {
            if (!"ConflictException".equals(refused.code())) {
                throw refused;
            }
        }
        Optional<SchemasApi.Schema> existing = schemas.describeSchema(registry, schema);
        if (existing.isEmpty()) {
            try {
                return new Outcome(Written.CREATED, schemas.createSchema(registry, schema, type, content, description));
            } catch (SchemasApi.Refused refused) {
                if (!"ConflictException".equals(refused.code())) {
                    throw refused;
                }
                existing = schemas.describeSchema(registry, schema);
                if (existing.isEmpty()) {
                    throw refused;
                }
            }
        }
        SchemasApi.Schema found = existing.get();
        if (sameJson(found.content(), content)
                && Objects.equals(found.type(), type)
                && Objects.equals(Objects.requireNonNullElse(found.description(), ""), description)) {
            return new Outcome(Written.UNCHANGED, found.version());
        }
        return new Outcome(Written.UPDATED, schemas.updateSchema(registry, schema, type, content, description));
    }

    /** Equal as JSON values (object key order and spacing aside), or as text when either is not JSON. */
    static boolean sameJson(String a, String b) {
        if (a == null || b == null) {
            return Objects.equals(a, b);
        }
        try {
            return Objects.equals(Json.read(a), Json.read(b));
        } catch (Json.NotJsonException e) {
            return a.equals(b);
        }
    }

    /** PUT to the pre-signed URL, as CloudFormation expects; a failure here is only logged. */
    private void respond(String url, Map<String, Object> response) {
        if (url == null) {
            return;
        }
        byte[] body = Json.write(response).getBytes(StandardCharsets.UTF_8);
        SdkHttpFullRequest request = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.PUT)
                .uri(URI.create(url))
                .putHeader("Content-Type", "")
                .putHeader("Content-Length", Integer.toString(body.length))
                .build();
        try {
            HttpExecuteResponse answer = http.prepareRequest(HttpExecuteRequest.builder()
                            .request(request)
                            .contentStreamProvider(ContentStreamProvider.fromByteArray(body))
                            .build())
                    .call();
            answer.responseBody().ifPresent(b -> {
                try {
                    b.close();
                } catch (IOException ignored) {
                    // the status is what matters
                }
            });
            if (answer.httpResponse().statusCode() >= 300) {
                log.accept("{\"level\":\"ERROR\",\"message\":\"CloudFormation refused the answer\",\"status\":"
                        + answer.httpResponse().statusCode() + "}");
            }
        } catch (IOException | RuntimeException e) {
            log.accept("{\"level\":\"ERROR\",\"message\":\"could not answer CloudFormation\",\"detail\":"
                    + Json.write(String.valueOf(e.getMessage())) + "}");
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static String string(Map<String, Object> map, String key) {
        Object value = map.get(key);
        return value == null ? null : value.toString();
    }
}
