package dev.punctual.cli.stage;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorNames;
import dev.punctual.entities.EntitySchedules;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.scheduler.SchedulerClient;

/**
 * How the CLI reaches a deployed stage: the region, the credentials and, for tests and local
 * stand-ins only, an endpoint per service. An operator's CLI uses {@link #fromProcess()}: the default
 * credential chain, {@code AWS_REGION} and AWS's own endpoints (which the SDK's
 * {@code AWS_ENDPOINT_URL_<SERVICE>} variables can still redirect).
 *
 * <p>Tests use {@link #loopback}: dummy credentials, an explicit region and one loopback endpoint per
 * service (moto for CloudFormation, DynamoDB and Logs; the Lambda Invoke stand-in for Lambda), so no
 * test can reach AWS.
 *
 * @param env the process environment the region is read from ({@code AWS_REGION}, {@code AWS_DEFAULT_REGION})
 * @param credentials the credentials every client signs with
 * @param endpoints endpoint overrides by service: {@link #CLOUDFORMATION}, {@link #LAMBDA}, {@link #DYNAMODB},
 *     {@link #LOGS}, {@link #SCHEDULER}; a service not named uses AWS
 */
public record AwsAccess(Map<String, String> env, AwsCredentialsProvider credentials, Map<String, URI> endpoints) {

    public static final String CLOUDFORMATION = "cloudformation";
    public static final String LAMBDA = "lambda";
    public static final String DYNAMODB = "dynamodb";
    public static final String LOGS = "logs";
    public static final String SCHEDULER = "scheduler";
    public static final String STATES = "states";

    public AwsAccess {
        env = Map.copyOf(env);
        endpoints = Map.copyOf(endpoints);
    }

    /** The operator's own: environment, default credential chain, AWS's endpoints. */
    public static AwsAccess fromProcess() {
        return new AwsAccess(
                System.getenv(), DefaultCredentialsProvider.builder().build(), Map.of());
    }

    /** A profile name as the AWS CLI accepts one in its files. */
    public static final java.util.regex.Pattern PROFILE = java.util.regex.Pattern.compile("[A-Za-z0-9_.@+-]{1,64}");

    /**
     * This access with {@code --profile NAME}: the region of that profile ({@link #region}) and, for the
     * process's own credentials, that profile's (a test's fixed credentials stay).
     */
    public AwsAccess withProfile(String profile) {
        Map<String, String> withProfile = new java.util.HashMap<>(env);
        withProfile.put("AWS_PROFILE", profile);
        AwsCredentialsProvider signing = credentials instanceof DefaultCredentialsProvider
                ? DefaultCredentialsProvider.builder().profileName(profile).build()
                : credentials;
        return new AwsAccess(withProfile, signing, endpoints);
    }

    /** Dummy credentials, the given region, and each service at its loopback endpoint. */
    public static AwsAccess loopback(String region, Map<String, URI> endpoints) {
        return new AwsAccess(
                Map.of("AWS_REGION", region),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-local", "punctual-local")),
                endpoints);
    }

    /**
     * {@code --region} if given, else {@code AWS_REGION} / {@code AWS_DEFAULT_REGION}, else the region of
     * the profile ({@code AWS_PROFILE}, or {@code default}) in the AWS config file ({@code
     * AWS_CONFIG_FILE}, or {@code ~/.aws/config}), as the AWS CLI finds it; none exits 2.
     */
    public Region region(String option) {
        if (option != null) {
            return Region.of(OperatorNames.region("--region", option));
        }
        for (String variable : new String[] {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
            String value = env.get(variable);
            if (value != null && !value.isBlank()) {
                return Region.of(OperatorNames.region(variable, value));
            }
        }
        String profile = Optional.ofNullable(env.get("AWS_PROFILE"))
                .filter(p -> !p.isBlank())
                .orElse("default");
        Optional<String> configured = profileRegion(profile);
        if (configured.isPresent()) {
            return Region.of(OperatorNames.region("region of profile " + profile, configured.get()));
        }
        throw new OperatorInputException("--region: no region given, AWS_REGION is not set and profile " + profile
                + " names none; accepted: e.g. --region eu-central-1, or region = ... in the profile");
    }

    /** The profile's {@code region} in the AWS config file, if the file, the profile and the key exist. */
    Optional<String> profileRegion(String profile) {
        Path config = Optional.ofNullable(env.get("AWS_CONFIG_FILE"))
                .filter(f -> !f.isBlank())
                .map(Path::of)
                .orElseGet(() -> Path.of(System.getProperty("user.home"), ".aws", "config"));
        if (!Files.isRegularFile(config)) {
            return Optional.empty();
        }
        ProfileFile file = ProfileFile.builder()
                .content(config)
                .type(ProfileFile.Type.CONFIGURATION)
                .build();
        return file.profile(profile).flatMap(p -> p.property("region")).filter(r -> !r.isBlank());
    }

    /** The DynamoDB endpoint override, if any (the handler's wiring takes it as a variable). */
    public Optional<URI> dynamoDbEndpoint() {
        return Optional.ofNullable(endpoints.get(DYNAMODB));
    }

    public CloudFormationClient cloudFormation(Region region) {
        return configure(CloudFormationClient.builder(), CLOUDFORMATION, region)
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    public LambdaClient lambda(Region region) {
        return configure(LambdaClient.builder(), LAMBDA, region)
                .httpClient(UrlConnectionHttpClient.builder()
                        // A RequestResponse invoke waits for the function: up to its 15-minute limit.
                        .socketTimeout(java.time.Duration.ofMinutes(16))
                        .build())
                .overrideConfiguration(c -> c.apiCallTimeout(java.time.Duration.ofMinutes(16))
                        // Not retried: a lost response may hide a job that ran (the ledger would skip
                        // it as done, but the operator should see what happened, not a second answer).
                        .retryStrategy(software.amazon.awssdk.awscore.retry.AwsRetryStrategy.doNotRetry()))
                .build();
    }

    public CloudWatchLogsClient logs(Region region) {
        return configure(CloudWatchLogsClient.builder(), LOGS, region)
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /**
     * EventBridge Scheduler as the entity client wants it ({@link EntitySchedules#clientBuilder}: the
     * light HTTP client, adaptive retries), with this access's credentials and endpoint.
     */
    public SchedulerClient scheduler(Region region) {
        return configure(EntitySchedules.clientBuilder(region), SCHEDULER, region)
                .build();
    }

    /** Step Functions: {@code cancel} stops a long occurrence's execution (decision 0039). */
    public software.amazon.awssdk.services.sfn.SfnClient stepFunctions(Region region) {
        return configure(software.amazon.awssdk.services.sfn.SfnClient.builder(), STATES, region)
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /** DynamoDB for the entity client's ledger side (a delete's tombstone, a put's clearing of it). */
    public DynamoDbClient dynamo(Region region) {
        return configure(
                        DynamoDbClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder()), DYNAMODB, region)
                .build();
    }

    private <B extends AwsClientBuilder<B, ?>> B configure(B builder, String service, Region region) {
        builder.region(region).credentialsProvider(credentials);
        URI endpoint = endpoints.get(service);
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder;
    }
}
