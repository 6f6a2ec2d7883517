package dev.punctual.cli.verify;

import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The AWS clients verify reads a stage with, all on one region and the CLI's credentials; in tests
 * each service may have a loopback endpoint, named by the keys below.
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
        CloudWatchLogsClient logs,
        IamClient iam,
        SfnClient stepFunctions)
        implements AutoCloseable {

    /** Endpoint keys for the services the CLI's own AWS access does not name. */
    public static final String STS = "sts";

    public static final String SCHEDULER = "scheduler";
    public static final String SQS = "sqs";
    public static final String CLOUDWATCH = "cloudwatch";

    /** IAM is global: its client has the global region, whatever the stage's. */
    public static final String IAM = "iam";

    /** Step Functions: the long jobs' state machines (decision 0039); the same key as the CLI's own access. */
    public static final String STATES = "states";

    /**
     * The clients the CLI's own access does not build, on the same region and credentials, with the
     * given client from the CLI for the rest.
     *
     * @param endpoints loopback endpoint overrides by service key ({@link #STS}, ...), empty for AWS
     * @param dynamoKey the key of DynamoDB's endpoint in {@code endpoints}
     */
    public static StageAws connect(
            Region region,
            AwsCredentialsProvider credentials,
            Map<String, URI> endpoints,
            String dynamoKey,
            CloudFormationClient cloudFormation,
            LambdaClient lambda,
            CloudWatchLogsClient logs) {
        return new StageAws(
                region,
                build(StsClient.builder(), credentials, endpoints.get(STS), region),
                cloudFormation,
                lambda,
                build(SchedulerClient.builder(), credentials, endpoints.get(SCHEDULER), region),
                build(DynamoDbClient.builder(), credentials, endpoints.get(dynamoKey), region),
                build(SqsClient.builder(), credentials, endpoints.get(SQS), region),
                build(CloudWatchClient.builder(), credentials, endpoints.get(CLOUDWATCH), region),
                logs,
                build(IamClient.builder(), credentials, endpoints.get(IAM), Region.AWS_GLOBAL),
                build(SfnClient.builder(), credentials, endpoints.get(STATES), region));
    }

    private static <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C build(
            B builder, AwsCredentialsProvider credentials, URI endpoint, Region region) {
        builder.region(region).credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create());
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
        iam.close();
        stepFunctions.close();
    }
}
