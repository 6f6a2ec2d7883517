package dev.punctual.testing;

import dev.punctual.local.MotoServer;
import java.net.URI;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * Hands tests a {@link DynamoDbClient} for a real DynamoDB-protocol server, chosen once per JVM:
 *
 * <ol>
 *   <li>the endpoint in {@code PUNCTUAL_DYNAMODB_ENDPOINT}, when set;
 *   <li>LocalStack through Testcontainers, when a Docker engine answers;
 *   <li>otherwise moto server, installed into a cached virtualenv and started on a free loopback port.
 * </ol>
 *
 * <p>Clients always carry dummy credentials and an explicit region, so no test can reach real AWS.
 */
public final class DynamoDbHarness {

    public static final String ENDPOINT_VARIABLE = "PUNCTUAL_DYNAMODB_ENDPOINT";
    public static final Region REGION = Region.US_EAST_1;

    private static DynamoDbBackend backend;
    private static DynamoDbClient sharedClient;

    private DynamoDbHarness() {}

    /** The backend of this JVM, started on first call; the choice is printed once. */
    public static synchronized DynamoDbBackend backend() {
        if (backend == null) {
            backend = choose();
            System.out.println("[punctual-test] DynamoDB backend: " + backend.describe());
        }
        return backend;
    }

    /** One client per JVM for tests that need nothing special. */
    public static synchronized DynamoDbClient client() {
        if (sharedClient == null) {
            sharedClient = newClient(builder -> {});
        }
        return sharedClient;
    }

    /** A fresh client, for tests that add interceptors or override configuration; the caller closes it. */
    public static DynamoDbClient newClient(Consumer<DynamoDbClientBuilder> customizer) {
        DynamoDbClientBuilder builder = DynamoDbClient.builder()
                .endpointOverride(backend().endpoint())
                .region(REGION)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")))
                .httpClient(UrlConnectionHttpClient.create());
        customizer.accept(builder);
        return builder.build();
    }

    private static DynamoDbBackend choose() {
        String explicit = System.getenv(ENDPOINT_VARIABLE);
        if (explicit != null && !explicit.isBlank()) {
            return new DynamoDbBackend(DynamoDbBackend.Kind.EXTERNAL, parseEndpoint(explicit), ENDPOINT_VARIABLE);
        }
        if (LocalStackBackend.dockerAnswers()) {
            return LocalStackBackend.start();
        }
        MotoServer moto = MotoServer.start();
        return new DynamoDbBackend(DynamoDbBackend.Kind.MOTO, moto.endpoint(), moto.detail());
    }

    static URI parseEndpoint(String value) {
        try {
            URI uri = URI.create(value.trim());
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("no scheme or host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new HarnessException(ENDPOINT_VARIABLE + "='" + value
                    + "' is not an endpoint URL; expected something like http://127.0.0.1:4566");
        }
    }
}
