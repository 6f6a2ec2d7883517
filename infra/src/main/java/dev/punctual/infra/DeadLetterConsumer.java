package dev.punctual.infra;

import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageResources;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.events.EventBus;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSource;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.sqs.CfnQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.constructs.Construct;

/**
 * The stage's dead-letter consumer (decision 0044): one small function, not a pool's, with an SQS event
 * source on each queue that holds given-up deliveries of occurrences (the Scheduler's dead-letter queue,
 * each pool's on-failure destination). It records each delivery on its occurrence as UNDELIVERED and
 * reports what it cannot read in {@code batchItemFailures}; each consumed queue redrives a message
 * received {@value #MAX_RECEIVES} times to {@link #unreadable()}, kept 14 days and alarmed, so nothing is
 * lost. Its role reads lock and run items and puts only a skip's attributes on run items.
 */
final class DeadLetterConsumer extends Construct {

    static final String HANDLER = "dev.punctual.handler.DeadLetterHandler::handleRequest";

    /** The pool name in its environment and log lines: not a pool of the catalog (a '.' never is). */
    static final String POOL = "punctual.dead-letters";

    /**
     * Receives before SQS moves a message to the unreadable queue: an unreadable one is tried this often
     * (each a visibility timeout apart), a readable one survives that many ledger faults in a row.
     */
    static final int MAX_RECEIVES = 5;

    /** Ten messages a batch, as SQS returns at most; each costs the ledger at most three requests. */
    static final int BATCH_SIZE = 10;

    /**
     * Within the consumed queues' 30 s visibility timeout (their default), which an event source requires
     * to be at least the function's timeout; ten messages take about 30 requests.
     */
    static final Duration TIMEOUT = Duration.seconds(30);

    /** The fewest concurrent invocations an SQS event source allows: a drain never crowds the pools. */
    static final int MAX_CONCURRENCY = 2;

    private final Function function;
    private final Queue unreadable;
    private final LogGroup logGroup;

    DeadLetterConsumer(
            Construct scope,
            String id,
            StageConfig config,
            Code code,
            LedgerTables tables,
            EventBus bus,
            Map<String, Queue> consumed) {
        super(scope, id);
        this.unreadable = FunctionPoolConstruct.deadLetterQueue(this, "Unreadable");
        this.logGroup = LogGroup.Builder.create(this, "Logs")
                .retention(FunctionPoolConstruct.retention(config.logRetentionDays()))
                .removalPolicy(config.retainData() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
                .build();
        Role role = Role.Builder.create(this, "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("Punctual dead-letter consumer: its log group, reads of the ledger's lock and run items,"
                        + " a skip's put on run items, its queues; nothing else")
                .build();
        role.addToPolicy(PolicyStatement.Builder.create()
                .actions(List.of("logs:CreateLogStream", "logs:PutLogEvents"))
                .resources(List.of(logGroup.getLogGroupArn()))
                .build());
        String ledger = tables.ledger().getTableArn();
        // The occurrence's run item and its job's (or entity's) lock item, read to know whether it is
        // recorded already and what the slot shows; any job's, since any job's delivery can be given up.
        role.addToPolicy(ledgerStatement(
                List.of("dynamodb:GetItem"), ledger, List.of(LedgerLayout.LOCK_ITEMS, LedgerLayout.RUN_ITEMS), null));
        // The UNDELIVERED skip: a put of a run item naming a skip's attributes only (and what its condition
        // ONLY_SKIP_STORED reads), never a run's owner, result or attempt history, nor any lock item.
        role.addToPolicy(ledgerStatement(
                List.of("dynamodb:PutItem"),
                ledger,
                List.of(LedgerLayout.RUN_ITEMS),
                LedgerLayout.UNDELIVERED_RUN_ATTRIBUTES));
        Map<String, String> environment = new LinkedHashMap<>(config.flags().toEnvironment());
        environment.putAll(
                new StageResources(tables.ledger().getTableName(), bus.getEventBusName(), POOL).toEnvironment());
        environment.putAll(new SkewTolerance(config.skewTolerance()).toEnvironment());
        this.function = Function.Builder.create(this, "Function")
                .description("Punctual " + config.stage() + ": records dead-lettered deliveries as UNDELIVERED")
                .runtime("java21".equals(config.lambdaRuntime()) ? Runtime.JAVA_21 : Runtime.JAVA_25)
                .architecture(Architecture.ARM_64)
                .handler(HANDLER)
                .code(code)
                .memorySize(512)
                .timeout(TIMEOUT)
                .role(role)
                .logGroup(logGroup)
                .environment(environment)
                .build();
        consumed.forEach((name, queue) -> {
            // A message the function keeps failing (unreadable, or a ledger down for five tries) moves on
            // to the kept queue rather than cycling until its retention ends.
            Map<String, Object> redrive = new LinkedHashMap<>();
            redrive.put("deadLetterTargetArn", unreadable.getQueueArn());
            redrive.put("maxReceiveCount", MAX_RECEIVES);
            ((CfnQueue) queue.getNode().getDefaultChild()).setRedrivePolicy(redrive);
            function.addEventSource(SqsEventSource.Builder.create(queue)
                    .batchSize(BATCH_SIZE)
                    .reportBatchItemFailures(true)
                    .maxConcurrency(MAX_CONCURRENCY)
                    .build());
        });
        NagSuppressions.addResourceSuppressions(
                role,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason("Dead-letter consumer: a given-up delivery may be any job's or entity's, so its reads"
                                + " of lock and run items and its skip put on run items are by key pattern (lock#*,"
                                + " run#*), the put limited to a skip's attributes")
                        .build()),
                true);
    }

    private static PolicyStatement ledgerStatement(
            List<String> actions, String ledgerArn, List<String> keys, List<String> attributes) {
        Map<String, Object> byKey = new LinkedHashMap<>();
        byKey.put("dynamodb:LeadingKeys", keys);
        if (attributes != null) {
            byKey.put("dynamodb:Attributes", attributes);
        }
        return PolicyStatement.Builder.create()
                .actions(actions)
                .resources(List.of(ledgerArn))
                .conditions(Map.of("ForAllValues:StringLike", byKey))
                .build();
    }

    Function function() {
        return function;
    }

    /** Where what the function could not read ends up, for a person. */
    Queue unreadable() {
        return unreadable;
    }

    LogGroup logGroup() {
        return logGroup;
    }
}
