package dev.punctual.cli.verify;

import dev.punctual.cli.reading.LogsInsightsStandIn;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.demo.SimulatedClock;
import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.handler.DeclaredTables;
import dev.punctual.handler.LambdaInvokeStandIn;
import dev.punctual.infra.RetrySettings;
import dev.punctual.infra.StageConfig;
import dev.punctual.infra.Stages;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobTable;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.local.MotoServer;
import dev.punctual.runtime.Catalogs;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageOutputs;
import dev.punctual.stage.StageResources;
import dev.punctual.time.Schedule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;

/**
 * A healthy local stage in moto, created the way the CDK app deploys one: resource names as
 * CloudFormation makes them from {@code StageStack}'s construct ids ({@code Punctual-<stage>-<id>...}),
 * each function's environment from {@link StageFlags#toEnvironment()}, {@link StageResources} and the
 * stage's {@link SkewTolerance}, each
 * job's schedule from {@link Schedule#deployment()}, {@link ScheduledPayload#forJob} and the stage's
 * {@link RetrySettings}, the ledger table from {@link LedgerTable} with point-in-time recovery and the
 * stage's deletion protection, the queues and alarms as resources of the stack (one alarm in a nested
 * jobs stack). Tests then plant one fault and run verify on it.
 */
final class LocalStage {

    static final String STAGE = "dev";
    static final Region REGION = Region.US_EAST_1;
    static final String ACCOUNT = "123456789012";

    private static MotoServer moto;
    private static MotoFront front;

    final StageConfig config = Stages.named(STAGE);
    final JobCatalog catalog = Catalogs.load(JobEnvironment.definitionsOnly(config.flags()));
    final StageAws aws;
    final String stack = StageOutputs.stackName(STAGE);
    final String ledgerTable = stack + "-TablesLedger0A1B2C3D-LEDGER1";
    final String recordsTable = stack + "-TablesRecords4E5F6A7B-RECORDS1";
    final String group = "punctual-" + STAGE;
    final Map<String, String> functions = new LinkedHashMap<>();
    final Map<String, String> logGroups = new LinkedHashMap<>();
    final Map<String, String> queues = new LinkedHashMap<>();
    private final List<String> queueIds = new java.util.ArrayList<>();
    final LambdaInvokeStandIn lambda;
    final LogsInsightsStandIn insights;

    /**
     * The one clock of the stage and of verify, moved only by {@link #sleeper()}. It starts at the real
     * time because moto, like CloudWatch, refuses log events older than 14 days.
     */
    final SimulatedClock clock = new SimulatedClock(java.time.Clock.systemUTC().instant());

    private final Map<String, Integer> shipped = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean shipping;

    private LocalStage(LambdaInvokeStandIn lambda, LogsInsightsStandIn insights) {
        this.lambda = lambda;
        this.insights = insights;
        AwsAccess access = access();
        this.aws = StageAws.connect(
                REGION,
                access.credentials(),
                access.endpoints(),
                AwsAccess.DYNAMODB,
                access.cloudFormation(REGION),
                motoLambda(),
                access.logs(REGION));
    }

    /** moto behind its front (which serves CloudWatch's CBOR protocol), one per JVM. */
    static synchronized URI endpoint() {
        if (moto == null) {
            moto = MotoServer.start();
            front = MotoFront.start(moto.endpoint());
        }
        return front.endpoint();
    }

    /**
     * A fresh moto (every backend reset) holding one healthy stage, its functions running the real
     * handler behind the Lambda Invoke stand-in, its saved queries (docs/queries.md) in the Logs Insights
     * stand-in.
     */
    static LocalStage healthy() {
        reset();
        endpoint();
        LambdaInvokeStandIn lambda = LambdaInvokeStandIn.start();
        front.invokeAt(lambda.endpoint());
        LogsInsightsStandIn insights = LogsInsightsStandIn.start();
        front.insightsAt(insights.endpoint());
        LocalStage stage = new LocalStage(lambda, insights);
        stage.create();
        return stage;
    }

    /** Loopback access: every service at moto's front, Lambda Invoke at the stand-in. */
    AwsAccess access() {
        URI moto = endpoint();
        Map<String, URI> endpoints = new LinkedHashMap<>();
        for (String service : new String[] {
            AwsAccess.CLOUDFORMATION,
            AwsAccess.DYNAMODB,
            AwsAccess.LOGS,
            StageAws.STS,
            StageAws.SCHEDULER,
            StageAws.SQS,
            StageAws.CLOUDWATCH,
            StageAws.IAM
        }) {
            endpoints.put(service, moto);
        }
        // Configuration from moto, Invoke from the stand-in: the front routes each to its server.
        endpoints.put(AwsAccess.LAMBDA, moto);
        return AwsAccess.loopback(REGION.id(), endpoints);
    }

    /** moto's own Lambda API (function configurations), which the stand-in does not serve. */
    software.amazon.awssdk.services.lambda.LambdaClient motoLambda() {
        return software.amazon.awssdk.services.lambda.LambdaClient.builder()
                .region(REGION)
                .endpointOverride(endpoint())
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /**
     * Waiting on this stage: the clock moves by the time asked for, then (after {@link #shipLogs()}) the
     * functions' log lines written so far are in their log groups, as Lambda ships them while time passes.
     */
    Sleeper sleeper() {
        return duration -> {
            clock.advance(duration);
            if (shipping) {
                ship();
            }
        };
    }

    CliContext context() {
        return new CliContext(clock, access(), java.io.InputStream.nullInputStream(), sleeper());
    }

    void close() {
        aws.close();
        lambda.close();
        insights.close();
    }

    private static void reset() {
        try (HttpClient http = HttpClient.newHttpClient()) {
            http.send(
                    HttpRequest.newBuilder(endpoint().resolve("/moto-api/reset"))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new IllegalStateException("moto reset failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void create() {
        LedgerTable.create(aws.dynamo(), ledgerTable);
        aws.dynamo()
                .updateContinuousBackups(r -> r.tableName(ledgerTable)
                        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        if (config.retainData()) {
            aws.dynamo().updateTable(r -> r.tableName(ledgerTable).deletionProtectionEnabled(true));
        }
        for (JobTable table : catalog.tables()) {
            DeclaredTables.create(aws.dynamo(), table, jobTables().get(table.name()));
        }
        queueIds.add("SchedulerDeadLetters");
        String role = role();
        for (FunctionPool pool : catalog.pools()) {
            String id = "Pool" + pool.name();
            queueIds.add(id + "AsyncFailures");
            String logGroup = cfnName(id + "Logs");
            aws.logs().createLogGroup(r -> r.logGroupName(logGroup));
            logGroups.put(pool.name(), logGroup);
            String function = cfnName(id + "Function");
            Map<String, String> env = new LinkedHashMap<>(config.flags().toEnvironment());
            env.putAll(new StageResources(ledgerTable, "punctual-" + STAGE, pool.name()).toEnvironment());
            env.putAll(catalog.tableEnvironment(jobTables()));
            env.putAll(new SkewTolerance(config.skewTolerance()).toEnvironment());
            try (var motoLambda = motoLambda()) {
                motoLambda.createFunction(r -> r.functionName(function)
                        .runtime("java21")
                        .role(role)
                        .handler("dev.punctual.handler.PunctualHandler::handleRequest")
                        .code(c -> c.zipFile(SdkBytes.fromByteArray(emptyZip())))
                        .environment(e -> e.variables(env)));
                String version =
                        motoLambda.publishVersion(r -> r.functionName(function)).version();
                motoLambda.createAlias(
                        r -> r.functionName(function).name("live").functionVersion(version));
            }
            functions.put(pool.name(), function);
            Map<String, String> runtimeEnv = new LinkedHashMap<>(env);
            runtimeEnv.put("AWS_REGION", REGION.id());
            // The function's own network: straight to moto, not through the front, so that what the
            // front records (operatorRequests) is what verify asked with the operator's clients.
            runtimeEnv.put(dev.punctual.handler.Wiring.ENDPOINT, moto.endpoint().toString());
            lambda.deploy(aliasArn(pool.name()), runtimeEnv, java.time.Duration.ofMinutes(1), clock);
        }
        aws.scheduler().createScheduleGroup(r -> r.name(group));
        for (JobDefinition job : catalog.jobs()) {
            schedule(job);
        }
        for (String alarm : new String[] {"AlertingFailures", "AlertingMissed"}) {
            alarm(cfnName(alarm));
        }
        alarm(missedRunAlarm());
        LogsInsightsStandIn.documentedQueries()
                .forEach((name, text) -> insights.saveQuery(savedQuery(name), text, List.copyOf(logGroups.values())));
        createStack();
        for (String id : queueIds) {
            queues.put(id, aws.sqs().getQueueUrl(r -> r.queueName(cfnName(id))).queueUrl());
        }
    }

    /**
     * The watch of the daily job ({@link FixtureCatalog#DAILY}), in the nested jobs stack as {@code JobsStack}
     * declares it: CloudFormation names it after the nested stack, {@code
     * Punctual-<stage>-Jobs0...-<suffix>-MissedRun...}.
     */
    String missedRunAlarm() {
        return stack + "-Jobs0NestedStackJobs0NestedStackResource1A2B3C4D-N1N2N3-" + missedRunLogicalId()
                + "5E6F7A8B-X1Y2Z3";
    }

    /** The logical id CDK makes of {@code MissedRun-<job>}: the id without its hyphens. */
    private static String missedRunLogicalId() {
        return ("MissedRun-" + FixtureCatalog.DAILY).replace("-", "");
    }

    /** An alarm as the stack deploys it, in OK (moto's CloudFormation creates none; the stack lists it). */
    private static void alarm(String name) {
        cloudWatch(Map.of(
                "Action", "PutMetricAlarm",
                "AlarmName", name,
                "Namespace", "Punctual",
                "MetricName", "Fail",
                "Statistic", "Sum",
                "Period", "300",
                "EvaluationPeriods", "1",
                "Threshold", "1",
                "ComparisonOperator", "GreaterThanOrEqualToThreshold"));
        cloudWatch(Map.of("Action", "SetAlarmState", "AlarmName", name, "StateValue", "OK", "StateReason", "test"));
    }

    /** A template resource of an alarm, named as {@link #alarm} made it. */
    private static Map<String, Object> alarmResource(String name) {
        return Map.of("Type", "AWS::CloudWatch::Alarm", "Properties", Map.of("AlarmName", name));
    }

    /** A template resource of a queue, named as CloudFormation names it. */
    private static Map<String, Object> queueResource(String name) {
        return Map.of("Type", "AWS::SQS::Queue", "Properties", Map.of("QueueName", name));
    }

    /**
     * Another stage deployed next to this one whose name this one's is a prefix of ({@code dev-eu} beside
     * {@code dev}): its stack {@code Punctual-<name>}, its scheduler's dead-letter queue and one alarm, named
     * by CloudFormation after its stack, so every one of them starts with {@code Punctual-dev-}.
     */
    Neighbour deployNeighbour(String name) {
        String other = StageOutputs.stackName(name);
        String queue = cfnName(other, "SchedulerDeadLetters");
        String alarm = cfnName(other, "AlertingFailures");
        alarm(alarm);
        Map<String, Object> resources = new LinkedHashMap<>();
        resources.put(logicalId("SchedulerDeadLetters"), queueResource(queue));
        resources.put(logicalId("AlertingFailures"), alarmResource(alarm));
        String template =
                json(Map.of("Resources", resources, "Outputs", Map.of(StageOutputs.STAGE_NAME, Map.of("Value", name))));
        aws.cloudFormation().createStack(r -> r.stackName(other).templateBody(template));
        return new Neighbour(aws.sqs().getQueueUrl(r -> r.queueName(queue)).queueUrl(), alarm);
    }

    /** A neighbour stage's scheduler dead-letter queue (its URL) and one of its alarms. */
    record Neighbour(String deadLetterQueueUrl, String alarm) {}

    /** What the operator's clients (verify's) sent since {@link #forgetRequests()}: the front sees only those. */
    List<MotoFront.Seen> operatorRequests() {
        return front.seen();
    }

    void forgetRequests() {
        front.forget();
    }

    /** The fixtures declare one table, {@link FixtureCatalog#RECORDS}: its physical name, by declared name. */
    Map<String, String> jobTables() {
        return Map.of(FixtureCatalog.RECORDS.name(), recordsTable);
    }

    /** A saved query's full name, as {@code SavedQueries.fullName} makes it. */
    static String savedQuery(String name) {
        return "punctual/" + STAGE + "/" + name;
    }

    /** The saved query is gone from the stage (deleted by hand, or never deployed by this version). */
    void deleteSavedQuery(String name) {
        insights.deleteQuery(savedQuery(name));
    }

    /** A job's schedule as JobsStack declares it. */
    private void schedule(JobDefinition job) {
        Schedule.Deployment deployment = job.schedule().deployment();
        RetrySettings retries = config.retries();
        String input = json(ScheduledPayload.forJob(job.id()));
        aws.scheduler()
                .createSchedule(r -> r.groupName(group)
                        .name(job.id())
                        .scheduleExpression(deployment.expression())
                        .scheduleExpressionTimezone(deployment.zone().getId())
                        .state(config.flags().schedulesEnabled() ? "ENABLED" : "DISABLED")
                        .flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                        .target(t -> t.arn(aliasArn(job.pool().name()))
                                .roleArn(schedulerRole())
                                .input(input)
                                .retryPolicy(p -> p.maximumRetryAttempts(retries.schedulerRetryAttempts())
                                        .maximumEventAgeInSeconds((int)
                                                retries.schedulerMaxEventAge().toSeconds()))
                                .deadLetterConfig(d -> d.arn(queueArn("SchedulerDeadLetters")))));
    }

    /** The role the stage's schedules deliver with ({@code SchedulerRoles}). */
    String schedulerRole() {
        return "arn:aws:iam::" + ACCOUNT + ":role/" + stack + "-SchedulerRolesPool";
    }

    void setAlarmState(String alarm, String state) {
        cloudWatch(Map.of("Action", "SetAlarmState", "AlarmName", alarm, "StateValue", state, "StateReason", "test"));
    }

    /** CloudWatch in its query protocol (the SDK speaks CBOR, which moto does not serve). */
    private static void cloudWatch(Map<String, String> parameters) {
        endpoint();
        try {
            front.cloudWatchQuery(new java.util.TreeMap<>(parameters));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * From now on each wait ({@link #sleeper()}) copies the functions' new log lines into their log
     * groups in moto, stamped with the clock: verify then finds them the way it finds a deployed stage's.
     */
    void shipLogs() {
        functions
                .keySet()
                .forEach(pool -> aws.logs()
                        .createLogStream(
                                r -> r.logGroupName(logGroups.get(pool)).logStreamName("stand-in")));
        shipping = true;
    }

    private void ship() {
        functions.keySet().forEach(pool -> {
            java.util.List<String> lines = lambda.logLines(aliasArn(pool));
            int from = shipped.getOrDefault(pool, 0);
            if (lines.size() > from) {
                long now = clock.instant().toEpochMilli();
                aws.logs()
                        .putLogEvents(r -> r.logGroupName(logGroups.get(pool))
                                .logStreamName("stand-in")
                                .logEvents(lines.subList(from, lines.size()).stream()
                                        .map(line ->
                                                software.amazon.awssdk.services.cloudwatchlogs.model.InputLogEvent
                                                        .builder()
                                                        .timestamp(now)
                                                        .message(line)
                                                        .build())
                                        .toList()));
                insights.putLines(logGroups.get(pool), lines.subList(from, lines.size()));
                shipped.put(pool, lines.size());
            }
        });
    }

    /** A line written straight into a pool's log group, as a job's own logging could. */
    void writeLogLine(String pool, String line) {
        String stream = "planted";
        aws.logs().createLogStream(r -> r.logGroupName(logGroups.get(pool)).logStreamName(stream));
        aws.logs()
                .putLogEvents(r -> r.logGroupName(logGroups.get(pool))
                        .logStreamName(stream)
                        .logEvents(software.amazon.awssdk.services.cloudwatchlogs.model.InputLogEvent.builder()
                                .timestamp(clock.instant().toEpochMilli())
                                .message(line)
                                .build()));
        insights.putLines(logGroups.get(pool), List.of(line));
    }

    String aliasArn(String pool) {
        return "arn:aws:lambda:" + REGION.id() + ":" + ACCOUNT + ":function:" + functions.get(pool) + ":live";
    }

    String queueArn(String id) {
        return "arn:aws:sqs:" + REGION.id() + ":" + ACCOUNT + ":" + cfnName(id);
    }

    /**
     * The stack: its outputs as StageStack declares them, its queues and alarms, the alarm topic, and a
     * nested jobs stack (its template in moto's S3) holding the missed-run alarm.
     */
    private void createStack() {
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put(StageOutputs.STAGE_NAME, Map.of("Value", STAGE));
        functions.forEach((pool, function) -> {
            outputs.put(StageOutputs.poolAlias(pool), Map.of("Value", aliasArn(pool)));
            outputs.put(StageOutputs.logGroup(pool), Map.of("Value", logGroups.get(pool)));
        });
        outputs.put(StageOutputs.LEDGER_TABLE, Map.of("Value", ledgerTable));
        jobTables().forEach((table, name) -> outputs.put(StageOutputs.jobTable(table), Map.of("Value", name)));
        outputs.put(StageOutputs.SCHEDULE_GROUP, Map.of("Value", group));
        LogsInsightsStandIn.documentedQueries()
                .keySet()
                .forEach(name -> outputs.put(StageOutputs.savedQuery(name), Map.of("Value", savedQuery(name))));
        outputs.put(StageOutputs.ALARM_TOPIC, Map.of("Value", Map.of("Ref", "AlertingTopic")));
        Map<String, Object> resources = new LinkedHashMap<>();
        resources.put("AlertingTopic", Map.of("Type", "AWS::SNS::Topic"));
        for (String id : queueIds) {
            resources.put(logicalId(id), queueResource(cfnName(id)));
        }
        for (String alarm : new String[] {"AlertingFailures", "AlertingMissed"}) {
            resources.put(logicalId(alarm), alarmResource(cfnName(alarm)));
        }
        String nested = "punctual-templates/" + stack + "-jobs0.json";
        s3Put("/punctual-templates", "");
        s3Put("/" + nested, json(Map.of("Resources", Map.of(missedRunLogicalId(), alarmResource(missedRunAlarm())))));
        resources.put(
                "Jobs0NestedStackJobs0NestedStackResource1A2B3C4D",
                Map.of(
                        "Type",
                        "AWS::CloudFormation::Stack",
                        "Properties",
                        Map.of("TemplateURL", "https://s3.amazonaws.com/" + nested)));
        String template = json(Map.of("Resources", resources, "Outputs", outputs));
        aws.cloudFormation().createStack(r -> r.stackName(stack).templateBody(template));
    }

    /** An object in moto's S3 (path style, in S3's signature scope, which is how moto picks the service). */
    private static void s3Put(String path, String body) {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(moto.endpoint().resolve(path))
                            .header(
                                    "Authorization",
                                    "AWS4-HMAC-SHA256 Credential=punctual-test/20260101/us-east-1/s3/aws4_request,"
                                            + " SignedHeaders=host, Signature=0")
                            .PUT(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "moto S3 PUT " + path + ": " + response.statusCode() + " " + response.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** CloudFormation's physical name: stack, logical id (construct path plus a hash), a random suffix. */
    String cfnName(String constructPath) {
        return cfnName(stack, constructPath);
    }

    private static String cfnName(String stack, String constructPath) {
        return stack + "-" + logicalId(constructPath) + "-" + "X1Y2Z3";
    }

    /** The logical id CDK makes of a construct path: the path and a hash of it. */
    private static String logicalId(String constructPath) {
        return constructPath + Integer.toHexString(constructPath.hashCode()).toUpperCase(Locale.ROOT);
    }

    private String role() {
        try (IamClient iam = IamClient.builder()
                .region(Region.AWS_GLOBAL)
                .endpointOverride(endpoint())
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            return iam.createRole(r -> r.roleName(stack + "-PoolRole").assumeRolePolicyDocument("{}"))
                    .role()
                    .arn();
        }
    }

    private static byte[] emptyZip() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("punctual.txt"));
            zip.write("moto keeps the configuration; the stand-in runs the handler"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            zip.closeEntry();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    private static String json(Object value) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    String[] verifyArgs(String... more) {
        String[] base = {"verify", "--stage", STAGE};
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }
}
