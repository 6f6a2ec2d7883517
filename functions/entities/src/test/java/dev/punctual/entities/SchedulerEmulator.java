package dev.punctual.entities;

import dev.punctual.entity.EntityScheduleName;
import dev.punctual.local.MotoServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.SchedulerClientBuilder;

/**
 * moto server's EventBridge Scheduler API, started once per JVM (the same launcher the DynamoDB tests
 * use; it serves one request at a time, so concurrent calls race at the API, never inside moto). Every
 * client carries dummy credentials, an explicit region and the loopback endpoint: no test reaches AWS.
 */
final class SchedulerEmulator {

    static final Region REGION = Region.US_EAST_1;

    private static URI endpoint;
    private static final AtomicInteger GROUPS = new AtomicInteger();

    private SchedulerEmulator() {}

    static synchronized URI endpoint() {
        if (endpoint == null) {
            MotoServer moto = MotoServer.start();
            endpoint = moto.endpoint();
            System.out.println(
                    "[punctual-test] EventBridge Scheduler: moto at " + endpoint + " (" + moto.detail() + ")");
        }
        return endpoint;
    }

    /** A client as {@link EntitySchedules#clientBuilder} builds one, pointed at moto, with interceptors. */
    static SchedulerClient client(ExecutionInterceptor... interceptors) {
        SchedulerClientBuilder builder = EntitySchedules.clientBuilder(REGION)
                .endpointOverride(endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")));
        // Adds to the builder's override configuration, keeping its retry strategy.
        builder.overrideConfiguration(builder.overrideConfiguration().toBuilder()
                .executionInterceptors(List.of(interceptors))
                .build());
        return builder.build();
    }

    /**
     * A schedule group of its own (unique in this moto, whatever ran before), created as the stage creates
     * it, and the targets of a stage with one pool, {@code default}, its dead-letter queue and retries.
     */
    static EntityTargets newGroup(SchedulerClient client, String prefix) {
        String group = EntityScheduleName.group(prefix + GROUPS.incrementAndGet() + "x" + System.nanoTime() % 100_000);
        client.createScheduleGroup(r -> r.name(group));
        return EntityTargets.builder(group)
                .pool(
                        "default",
                        "arn:aws:lambda:us-east-1:123456789012:function:f:live",
                        "arn:aws:iam::123456789012:role/r")
                .deadLetterQueue("arn:aws:sqs:us-east-1:123456789012:dlq")
                .retries(3, Duration.ofHours(1))
                .build();
    }
}
