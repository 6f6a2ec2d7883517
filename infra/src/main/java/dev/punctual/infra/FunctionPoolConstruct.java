package dev.punctual.infra;

import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobTable;
import dev.punctual.job.MaintenanceCondition;
import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageResources;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.events.EventBus;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.EventInvokeConfigOptions;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.lambda.destinations.SqsDestination;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * One function pool: the Lambda function built from punctual.jar, its {@value #ALIAS} alias (the
 * schedules' target, and the SnapStart version), its log group, and the on-failure destination of
 * Lambda's async retries. Its role allows exactly the table actions the runtime uses on the ledger, on
 * the ledger items of its own jobs and groups only ({@link PoolLedgerPolicies}), and on each table its
 * jobs declare the actions declared, whose name it finds in the declared variable.
 */
public final class FunctionPoolConstruct extends Construct {

    public static final String HANDLER = "dev.punctual.handler.PunctualHandler::handleRequest";
    public static final String ALIAS = "live";

    /** The id of CDK's warning that SnapStart needs a published version. */
    static final String SNAPSTART_REQUIRES_PUBLISH = "@aws-cdk/aws-lambda:snapStartRequirePublish";

    private final Function function;
    private final Alias alias;
    private final LogGroup logGroup;
    private final Queue failureQueue;

    public FunctionPoolConstruct(
            Construct scope,
            String id,
            StageConfig config,
            FunctionPool pool,
            Code code,
            LedgerTables tables,
            PoolLedgerKeys ledgerKeys,
            List<JobTable> used,
            EventBus bus) {
        this(scope, id, config, pool, code, tables, ledgerKeys, used, List.of(), bus);
    }

    /**
     * @param conditions the catalog's maintenance conditions (decision 0036, 5): every pool evaluates them
     *     before each occurrence, so each is given the condition's table name and {@code dynamodb:Query} on
     *     exactly what the condition reads (the table, or its one index), whatever its jobs use
     */
    public FunctionPoolConstruct(
            Construct scope,
            String id,
            StageConfig config,
            FunctionPool pool,
            Code code,
            LedgerTables tables,
            PoolLedgerKeys ledgerKeys,
            List<JobTable> used,
            List<MaintenanceCondition> conditions,
            EventBus bus) {
        super(scope, id);
        this.logGroup = LogGroup.Builder.create(this, "Logs")
                .retention(retention(config.logRetentionDays()))
                .removalPolicy(config.retainData() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
                .build();
        Role role = role(tables, used, bus);
        for (MaintenanceCondition condition : conditions) {
            String arn = tables.jobTable(condition.table().name()).getTableArn();
            role.addToPolicy(statement(
                    List.of("dynamodb:Query"),
                    List.of(condition
                            .index()
                            .map(index -> arn + "/index/" + index)
                            .orElse(arn))));
        }
        PoolLedgerPolicies ledger =
                new PoolLedgerPolicies(this, "Ledger", tables.ledger().getTableArn(), ledgerKeys, role);
        Map<String, String> environment = new LinkedHashMap<>(config.flags().toEnvironment());
        environment.putAll(
                new StageResources(tables.ledger().getTableName(), bus.getEventBusName(), pool.name()).toEnvironment());
        environment.putAll(new SkewTolerance(config.skewTolerance()).toEnvironment());
        if (config.freshness().periods() > 0) {
            // Only when set: a stage without a default keeps the environment (and template) it had.
            environment.putAll(config.freshness().toEnvironment());
        }
        List<JobTable> named = new java.util.ArrayList<>(used);
        conditions.stream()
                .map(MaintenanceCondition::table)
                .filter(table -> !named.contains(table))
                .distinct()
                .forEach(named::add);
        for (JobTable table : named) {
            String taken = environment.putIfAbsent(
                    table.environmentVariable(), tables.jobTable(table.name()).getTableName());
            if (taken != null) {
                throw new StageConfigException(
                        "table " + table.name() + ".environmentVariable",
                        table.environmentVariable(),
                        "a variable Punctual does not set itself (taken: " + environment.keySet() + ")");
            }
        }
        this.function = Function.Builder.create(this, "Function")
                .description("Punctual " + config.stage() + " pool " + pool.name())
                .runtime("java21".equals(config.lambdaRuntime()) ? Runtime.JAVA_21 : Runtime.JAVA_25)
                .architecture(Architecture.ARM_64)
                .handler(HANDLER)
                .code(code)
                .memorySize(pool.memoryMb())
                .timeout(Duration.seconds(pool.timeout().toSeconds()))
                .role(role)
                .logGroup(logGroup)
                .environment(environment)
                .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
                .reservedConcurrentExecutions(config.reservedConcurrency().get(pool.name()))
                .build();
        // The ledger's grants are policies of their own: the function (and so its version and the
        // schedules on its alias) waits for them, as it waits for the role's inline policy.
        function.getNode().addDependency(ledger);
        // CDK warns that SnapStart applies only to published versions; the alias below is on one.
        Annotations.of(function)
                .acknowledgeWarning(
                        SNAPSTART_REQUIRES_PUBLISH,
                        "the schedules target the alias " + ALIAS + ", which points at a published version");
        this.failureQueue = deadLetterQueue(this, "AsyncFailures");
        this.alias = Alias.Builder.create(this, "Alias")
                .aliasName(ALIAS)
                .version(function.getCurrentVersion())
                .build();
        alias.configureAsyncInvoke(EventInvokeConfigOptions.builder()
                .retryAttempts(config.retries().lambdaRetryAttempts())
                .maxEventAge(
                        Duration.seconds(config.retries().lambdaMaxEventAge().toSeconds()))
                .onFailure(new SqsDestination(failureQueue))
                .build());
    }

    public Function function() {
        return function;
    }

    public Alias alias() {
        return alias;
    }

    public LogGroup logGroup() {
        return logGroup;
    }

    public Queue failureQueue() {
        return failureQueue;
    }

    /** An encrypted, TLS-only queue that holds events nobody could deliver, for 14 days. */
    static Queue deadLetterQueue(Construct scope, String id) {
        Queue queue = Queue.Builder.create(scope, id)
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .retentionPeriod(Duration.days(14))
                .build();
        NagSuppressions.addResourceSuppressions(
                queue,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-SQS3")
                        .reason("This queue is itself a dead-letter destination; an alarm watches its depth.")
                        .build()));
        return queue;
    }

    private Role role(LedgerTables tables, List<JobTable> used, EventBus bus) {
        Role role = Role.Builder.create(this, "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("Punctual function pool: its log group, its jobs' ledger items, its tables, its event"
                        + " bus; nothing else")
                .build();
        role.addToPolicy(
                statement(List.of("logs:CreateLogStream", "logs:PutLogEvents"), List.of(logGroup.getLogGroupArn())));
        for (JobTable table : used) {
            String arn = tables.jobTable(table.name()).getTableArn();
            role.addToPolicy(statement(table.actions(), List.of(arn)));
            indexReads(table, arn).ifPresent(role::addToPolicy);
        }
        role.addToPolicy(statement(List.of("events:PutEvents"), List.of(bus.getEventBusArn())));
        return role;
    }

    /**
     * Query and Scan on each declared index by name, when the jobs may Query or Scan the table: the only
     * actions DynamoDB authorises on an index's ARN ({@code table/NAME/index/INDEX}). By name, not
     * {@code index/*}: an index added later is granted when it is declared.
     */
    private static Optional<PolicyStatement> indexReads(JobTable declared, String tableArn) {
        List<String> reads = declared.actions().stream()
                .filter(a -> a.equals("dynamodb:Query") || a.equals("dynamodb:Scan"))
                .toList();
        if (reads.isEmpty() || declared.indexes().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(statement(
                reads,
                declared.indexes().stream()
                        .map(index -> tableArn + "/index/" + index.name())
                        .toList()));
    }

    private static PolicyStatement statement(List<String> actions, List<String> resources) {
        return PolicyStatement.Builder.create()
                .actions(actions)
                .resources(resources)
                .build();
    }

    static RetentionDays retention(int days) {
        for (RetentionDays value : RetentionDays.values()) {
            if (value.name().equals(retentionName(days))) {
                return value;
            }
        }
        throw new IllegalStateException("no RetentionDays for " + days + " (StageConfig validates this)");
    }

    private static String retentionName(int days) {
        return switch (days) {
            case 1 -> "ONE_DAY";
            case 3 -> "THREE_DAYS";
            case 5 -> "FIVE_DAYS";
            case 7 -> "ONE_WEEK";
            case 14 -> "TWO_WEEKS";
            case 30 -> "ONE_MONTH";
            case 60 -> "TWO_MONTHS";
            case 90 -> "THREE_MONTHS";
            case 120 -> "FOUR_MONTHS";
            case 150 -> "FIVE_MONTHS";
            case 180 -> "SIX_MONTHS";
            case 365 -> "ONE_YEAR";
            case 400 -> "THIRTEEN_MONTHS";
            case 545 -> "EIGHTEEN_MONTHS";
            case 731 -> "TWO_YEARS";
            case 1096 -> "THREE_YEARS";
            case 1827 -> "FIVE_YEARS";
            case 2192 -> "SIX_YEARS";
            case 2557 -> "SEVEN_YEARS";
            case 2922 -> "EIGHT_YEARS";
            case 3288 -> "NINE_YEARS";
            case 3653 -> "TEN_YEARS";
            default -> "";
        };
    }
}
