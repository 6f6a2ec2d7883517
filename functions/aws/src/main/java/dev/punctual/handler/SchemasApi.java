package dev.punctual.handler;

import dev.punctual.PunctualException;
import dev.punctual.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * The four EventBridge Schemas calls the console's test events need, over the service's REST-JSON
 * protocol (API version 2019-12-02), signed with the SDK's SigV4 signer and sent by its URLConnection
 * client. The SDK's own {@code schemas} module is not used: it is not served by the registry this build
 * resolves from, and these calls are small.
 *
 * <p>What the protocol says, from the service model (botocore {@code schemas/2019-12-02}): CreateRegistry
 * {@code POST /v1/registries/name/{registryName}} (201; 409 {@code ConflictException} when it exists),
 * DescribeSchema {@code GET .../schemas/name/{schemaName}} (200; 404 {@code NotFoundException}),
 * CreateSchema {@code POST} on the same path (201; the service answers 409 {@code ConflictException} for an
 * existing schema although the model lists no such error), UpdateSchema {@code PUT} on it (200; errors
 * 400 {@code BadRequestException}, 403, 404, 500, 503). Bodies carry {@code Content}, {@code Description}
 * and {@code Type}; errors name their code in the {@code x-amzn-ErrorType} header or the body's
 * {@code Code}.
 */
public final class SchemasApi {

    /** A schema's latest version as DescribeSchema returns it. */
    public record Schema(String content, String type, String description, String version) {}

    /** A call the service refused: its HTTP status and error code ({@code ConflictException}, ...). */
    public static final class Refused extends PunctualException {
        private static final long serialVersionUID = 1L;

        private final int status;
        private final String code;

        Refused(String call, int status, String code, String message) {
            super(call + " refused: " + status + " " + code + (message.isBlank() ? "" : ": " + message));
            this.status = status;
            this.code = code;
        }

        public int status() {
            return status;
        }

        public String code() {
            return code;
        }
    }

    private final SdkHttpClient http;
    private final URI endpoint;
    private final String region;
    private final AwsCredentialsProvider credentials;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    /**
     * @param endpoint the service's endpoint, e.g. {@code https://schemas.eu-central-1.amazonaws.com} (see
     *     {@link #endpointOf}), or a local stand-in's
     */
    public SchemasApi(SdkHttpClient http, URI endpoint, String region, AwsCredentialsProvider credentials) {
        this.http = http;
        this.endpoint = endpoint;
        this.region = region;
        this.credentials = credentials;
    }

    /** The regional endpoint: {@code schemas.<region>.amazonaws.com}, {@code .com.cn} in China. */
    public static URI endpointOf(String region) {
        return URI.create("https://schemas." + region + ".amazonaws.com" + (region.startsWith("cn-") ? ".cn" : ""));
    }

    /** CreateRegistry. */
    public void createRegistry(String registry, String description) {
        send("CreateRegistry", SdkHttpMethod.POST, registryPath(registry), Map.of("Description", description));
    }

    /** DescribeSchema of the latest version; empty when there is no such schema (404 NotFoundException). */
    public Optional<Schema> describeSchema(String registry, String schema) {
        try {
            Map<String, Object> found = send("DescribeSchema", SdkHttpMethod.GET, schemaPath(registry, schema), null);
            return Optional.of(new Schema(
                    text(found.get("Content")),
                    text(found.get("Type")),
                    text(found.get("Description")),
                    text(found.get("SchemaVersion"))));
        } catch (Refused refused) {
            if (refused.status() == 404 || "NotFoundException".equals(refused.code())) {
                return Optional.empty();
            }
            throw refused;
        }
    }

    /** CreateSchema; returns the new schema's version. */
    public String createSchema(String registry, String schema, String type, String content, String description) {
        return text(
                send("CreateSchema", SdkHttpMethod.POST, schemaPath(registry, schema), body(type, content, description))
                        .get("SchemaVersion"));
    }

    /** UpdateSchema: a new version with this content; returns its version. */
    public String updateSchema(String registry, String schema, String type, String content, String description) {
        return text(
                send("UpdateSchema", SdkHttpMethod.PUT, schemaPath(registry, schema), body(type, content, description))
                        .get("SchemaVersion"));
    }

    private static Map<String, Object> body(String type, String content, String description) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("Content", content);
        body.put("Description", description);
        body.put("Type", type);
        return body;
    }

    private static String registryPath(String registry) {
        return "/v1/registries/name/" + segment(registry);
    }

    private static String schemaPath(String registry, String schema) {
        return registryPath(registry) + "/schemas/name/" + segment(schema);
    }

    private static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    /** Signs and sends one call; a status of 300 or more is a {@link Refused} naming the error code. */
    private Map<String, Object> send(String call, SdkHttpMethod method, String path, Map<String, Object> body) {
        String payload = body == null ? null : Json.write(body);
        SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder()
                .method(method)
                .uri(endpoint.resolve(path))
                .putHeader("Accept", "application/json");
        if (payload != null) {
            request.putHeader("Content-Type", "application/json");
        }
        AwsCredentialsIdentity identity = credentials.resolveIdentity().join();
        SignedRequest signed = signer.sign(r -> {
            r.identity(identity)
                    .request(request.build())
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "schemas")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region);
            if (payload != null) {
                r.payload(ContentStreamProvider.fromUtf8String(payload));
            }
        });
        HttpExecuteRequest.Builder execute = HttpExecuteRequest.builder().request(signed.request());
        signed.payload().ifPresent(execute::contentStreamProvider);
        try {
            HttpExecuteResponse response = http.prepareRequest(execute.build()).call();
            int status = response.httpResponse().statusCode();
            String text = read(response);
            Map<String, Object> parsed = parse(text);
            if (status >= 300) {
                String code = response.httpResponse()
                        .firstMatchingHeader("x-amzn-ErrorType")
                        .map(header -> header.split(":", 2)[0])
                        .orElseGet(() -> String.valueOf(parsed.getOrDefault("Code", "HTTP" + status)));
                throw new Refused(call, status, code, String.valueOf(parsed.getOrDefault("Message", "")));
            }
            return parsed;
        } catch (IOException e) {
            throw new UncheckedIOException(call + " could not reach " + endpoint, e);
        }
    }

    private static String read(HttpExecuteResponse response) throws IOException {
        if (response.responseBody().isEmpty()) {
            return "";
        }
        try (InputStream in = response.responseBody().get()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parse(String text) {
        if (text.isBlank()) {
            return Map.of();
        }
        try {
            return Json.read(text) instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        } catch (Json.NotJsonException e) {
            return Map.of("Message", text);
        }
    }
}
