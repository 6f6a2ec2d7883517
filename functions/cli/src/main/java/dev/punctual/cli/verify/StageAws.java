package dev.punctual.cli.verify;

import dev.punctual.cli.AwsAccess;
import java.net.URI;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
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
 * The AWS clients verify reads a stage with, all on one region and the CLI's credentials
 * ({@link AwsAccess}); in tests each service may have a loopback endpoint, named by the keys below.
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

    /** Endpoint keys of {@link AwsAccess#endpoints()} for the services the CLI's own access does not name. */
    public static final String STS = "sts";

    public static final String SCHEDULER = "scheduler";
    public static final String SQS = "sqs";
    public static final String CLOUDWATCH = "cloudwatch";

    public static StageAws connect(AwsAccess access, Region region) {
        return new StageAws(
                region,
                build(StsClient.builder(), access, STS, region),
                access.cloudFormation(region),
                access.lambda(region),
                build(SchedulerClient.builder(), access, SCHEDULER, region),
                build(DynamoDbClient.builder(), access, AwsAccess.DYNAMODB, region),
                build(SqsClient.builder(), access, SQS, region),
                build(CloudWatchClient.builder(), access, CLOUDWATCH, region),
                access.logs(region));
    }

    private static <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C build(
            B builder, AwsAccess access, String service, Region region) {
        builder.region(region).credentialsProvider(access.credentials()).httpClient(UrlConnectionHttpClient.create());
        URI endpoint = access.endpoints().get(service);
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
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
