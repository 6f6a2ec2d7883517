package dev.punctual.cli.verify;

import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The AWS clients verify reads a stage with, all on one region and one set of credentials, and on
 * one endpoint when an emulator stands in for AWS. The Lambda client may have its own endpoint: moto
 * keeps function configurations but does not run Java functions, so tests point Invoke at a stand-in.
 */
public record StageAws(
        Region region,
        StsClient sts,
        CloudFormationClient cloudFormation,
        LambdaClient lambda,
        SchedulerClient scheduler,
        DynamoDbClient dynamo,
        SqsClient sqs,
        CloudWatchClient cloudWatch,
        CloudWatchLogsClient logs)
        implements AutoCloseable {

    /**
     * @param endpoint every service's endpoint (an emulator), or empty for AWS
     * @param lambdaEndpoint the Lambda endpoint, if it differs from {@code endpoint}
     */
    public static StageAws connect(
            Region region, AwsCredentialsProvider credentials, Optional<URI> endpoint, Optional<URI> lambdaEndpoint) {
        return new StageAws(
                region,
                build(StsClient.builder(), region, credentials, endpoint),
                build(CloudFormationClient.builder(), region, credentials, endpoint),
                build(LambdaClient.builder(), region, credentials, lambdaEndpoint.or(() -> endpoint)),
                build(SchedulerClient.builder(), region, credentials, endpoint),
                build(DynamoDbClient.builder(), region, credentials, endpoint),
                build(SqsClient.builder(), region, credentials, endpoint),
                build(CloudWatchClient.builder(), region, credentials, endpoint),
                build(CloudWatchLogsClient.builder(), region, credentials, endpoint));
    }

    private static <
                    B extends
                            AwsClientBuilder<B, C>
                                    & software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder<B, C>,
                    C>
            C build(B builder, Region region, AwsCredentialsProvider credentials, Optional<URI> endpoint) {
        builder.region(region).credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create());
        endpoint.ifPresent(builder::endpointOverride);
        return builder.build();
    }

    @Override
    public void close() {
        sts.close();
        cloudFormation.close();
        lambda.close();
        scheduler.close();
        dynamo.close();
        sqs.close();
        cloudWatch.close();
        logs.close();
    }
}
