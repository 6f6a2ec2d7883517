package dev.punctual.examples;

import dev.punctual.job.JobEnvironment;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * The example jobs' own DynamoDB client, built from the function's environment the way Punctual builds
 * its own: explicit region, the light URLConnection HTTP client (Lambda cold start), and an emulator's
 * endpoint with dummy credentials when one is given (demo, CLI against a local endpoint, tests).
 */
final class ExampleClients {

    /** An emulator's endpoint; the same variable Punctual's wiring reads, never set in Lambda. */
    static final String ENDPOINT = "PUNCTUAL_DYNAMODB_ENDPOINT";

    private ExampleClients() {}

    static DemoTable demoTable(JobEnvironment env) {
        return new DemoTable(dynamo(env), env.require(ExampleCatalog.DEMO_TABLE.environmentVariable()));
    }

    private static DynamoDbClient dynamo(JobEnvironment env) {
        String region = env.variable("AWS_REGION")
                .or(() -> env.variable("AWS_DEFAULT_REGION"))
                .orElseGet(() -> env.require("AWS_REGION"));
        DynamoDbClientBuilder builder =
                DynamoDbClient.builder().region(Region.of(region)).httpClient(UrlConnectionHttpClient.create());
        env.variable(ENDPOINT)
                .ifPresentOrElse(
                        endpoint -> builder.endpointOverride(URI.create(endpoint))
                                .credentialsProvider(StaticCredentialsProvider.create(
                                        AwsBasicCredentials.create("punctual-local", "punctual-local"))),
                        () -> builder.credentialsProvider(
                                DefaultCredentialsProvider.builder().build()));
        return builder.build();
    }
}
