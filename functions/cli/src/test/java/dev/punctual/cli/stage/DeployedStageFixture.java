package dev.punctual.cli.stage;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.handler.DeclaredTables;
import dev.punctual.handler.LambdaInvokeStandIn;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobTable;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageOutputs;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.InputStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;

/**
 * A stage "deployed" on loopback, for tests of the CLI against a deployed stage (and of {@code verify}):
 * its tables in the DynamoDB emulator (moto), one function per pool of the catalog behind the
 * {@link LambdaInvokeStandIn} (the real handler, wired as in Lambda), and a CloudFormation stack
 * {@code Punctual-<stage>} in moto whose outputs name them with the {@link StageOutputs} keys the CDK app
 * writes (CloudFormation needs one resource: a {@code WaitConditionHandle}). The CLI finds it exactly as it
 * finds a real stage: {@code DescribeStacks}, then Lambda {@code Invoke} on the alias ARNs.
 *
 * <pre>{@code
 * try (DeployedStageFixture stage = DeployedStageFixture.deploy(functionClock, Duration.ofMinutes(1))) {
 *     PunctualCli.execute(out, err, stage.context(cliClock), "run", FixtureCatalog.DAILY, "--stage", stage.stage());
 * }
 * }</pre>
 */
public final class DeployedStageFixture implements AutoCloseable {

    public static final String REGION = DynamoDbHarness.REGION.id();
    public static final String ACCOUNT = "123456789012";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String stage;
    private final String ledgerTable;
    private final Map<String, String> jobTables;
    private final LambdaInvokeStandIn lambda;
    private final Map<String, String> aliases;

    /** Outputs a test adds to the stack's (a per-entity job's entity group and roles). */
    private final Map<String, String> extraOutputs = new LinkedHashMap<>();

    private DeployedStageFixture(
            String stage,
            String ledgerTable,
            Map<String, String> jobTables,
            LambdaInvokeStandIn lambda,
            Map<String, String> aliases) {
        this.stage = stage;
        this.ledgerTable = ledgerTable;
        this.jobTables = jobTables;
        this.lambda = lambda;
        this.aliases = aliases;
    }

    /** A fresh stage with a unique name ({@code dev-xxxxxx}: dev's flags) and fresh tables. */
    public static DeployedStageFixture deploy(Clock functionClock, Duration functionTimeout) {
        return deploy("dev-" + UUID.randomUUID().toString().substring(0, 6), functionClock, functionTimeout);
    }

    /**
     * A stage of the given name: tables, a function per pool (timeout and clock as given) and its stack.
     *
     * @param functionClock the functions' clock: the runtime's and the budget's ({@link LambdaInvokeStandIn})
     */
    public static DeployedStageFixture deploy(String stage, Clock functionClock, Duration functionTimeout) {
        return deploy(stage, functionClock, functionTimeout, Map.of());
    }

    /**
     * A stage of the given name whose stack has these outputs besides the fixture's, e.g. the entity
     * outputs a stage with a per-entity job has (the fixture catalog has none).
     */
    public static DeployedStageFixture deploy(
            String stage, Clock functionClock, Duration functionTimeout, Map<String, String> extraOutputs) {
        URI moto = DynamoDbHarness.backend().endpoint();
        String ledger = TestTables.uniqueName(DeployedStageFixture.class, "ledger");
        LedgerTable.createIfMissing(DynamoDbHarness.client(), ledger);
        JobCatalog definitions = OperatorSession.definitions(StageFlags.defaultsFor(stage));
        Map<String, String> tables = new LinkedHashMap<>();
        for (JobTable table : definitions.tables()) {
            String name = TestTables.uniqueName(DeployedStageFixture.class, table.name());
            DeclaredTables.createIfMissing(DynamoDbHarness.client(), table, name);
            tables.put(table.name(), name);
        }
        LambdaInvokeStandIn lambda = LambdaInvokeStandIn.start();
        Map<String, String> aliases = new LinkedHashMap<>();
        for (FunctionPool pool : definitions.pools()) {
            String arn = "arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:punctual-" + stage + "-" + pool.name()
                    + ":live";
            lambda.deploy(
                    arn,
                    LambdaInvokeStandIn.environment(
                            stage, ledger, definitions.tableEnvironment(tables), pool.name(), REGION, moto),
                    functionTimeout,
                    functionClock);
            aliases.put(pool.name(), arn);
        }
        DeployedStageFixture fixture = new DeployedStageFixture(stage, ledger, tables, lambda, aliases);
        fixture.extraOutputs.putAll(extraOutputs);
        fixture.createStack();
        return fixture;
    }

    /** The outputs the CDK app writes, with this fixture's values, by output key. */
    public Map<String, String> outputs() {
        Map<String, String> outputs = new LinkedHashMap<>();
        outputs.put(StageOutputs.STAGE_NAME, stage);
        outputs.put(StageOutputs.LEDGER_TABLE, ledgerTable);
        jobTables.forEach((table, name) -> outputs.put(StageOutputs.jobTable(table), name));
        outputs.put(StageOutputs.SCHEDULE_GROUP, "punctual-" + stage);
        outputs.put(
                StageOutputs.ALARM_TOPIC, "arn:aws:sns:" + REGION + ":" + ACCOUNT + ":punctual-" + stage + "-alarms");
        outputs.put(
                StageOutputs.OPERATOR_POLICY, "arn:aws:iam::" + ACCOUNT + ":policy/punctual-" + stage + "-operator");
        aliases.forEach((pool, arn) -> {
            outputs.put(StageOutputs.poolAlias(pool), arn);
            outputs.put(StageOutputs.logGroup(pool), "/aws/lambda/punctual-" + stage + "-" + pool);
        });
        for (String query : new String[] {"failures", "job-timeline"}) {
            outputs.put(StageOutputs.savedQuery(query), "punctual/" + stage + "/" + query);
        }
        outputs.putAll(extraOutputs);
        return outputs;
    }

    private void createStack() {
        createStack(aws(), stage, outputs());
    }

    /**
     * A stack {@code Punctual-<stage>} in moto with exactly these outputs and nothing behind them: for a
     * command that reads only the outputs (and services of its own, as {@code schedules} does).
     */
    public static void createStack(AwsAccess aws, String stage, Map<String, String> stackOutputs) {
        ObjectNode template = JSON.createObjectNode();
        template.put("AWSTemplateFormatVersion", "2010-09-09");
        // CloudFormation refuses a template without a resource.
        template.putObject("Resources")
                .putObject("Placeholder")
                .put("Type", "AWS::CloudFormation::WaitConditionHandle");
        ObjectNode outputs = template.putObject("Outputs");
        stackOutputs.forEach((key, value) -> outputs.putObject(key).put("Value", value));
        try (CloudFormationClient cloudFormation = aws.cloudFormation(DynamoDbHarness.REGION)) {
            cloudFormation.createStack(
                    b -> b.stackName(StageOutputs.stackName(stage)).templateBody(template.toString()));
        }
    }

    /** Loopback access: CloudFormation, DynamoDB, Logs and Scheduler at moto, Lambda at the stand-in. */
    public AwsAccess aws() {
        URI moto = DynamoDbHarness.backend().endpoint();
        return AwsAccess.loopback(
                REGION,
                Map.of(
                        AwsAccess.CLOUDFORMATION, moto,
                        AwsAccess.DYNAMODB, moto,
                        AwsAccess.LOGS, moto,
                        AwsAccess.SCHEDULER, moto,
                        AwsAccess.LAMBDA, lambda.endpoint()));
    }

    /**
     * What the CLI runs with: this stage's loopback access, the given clock, the given standard input,
     * and a sleeper that refuses: a command that waits on a clock the test does not move would never end,
     * so a test of one passes its own sleeper ({@link #context(Clock, InputStream, Sleeper)}).
     */
    public CliContext context(Clock clock, InputStream stdin) {
        return context(clock, stdin, duration -> {
            throw new IllegalStateException("the command waited " + duration + " on a clock the test does not move;"
                    + " pass a sleeper that moves it");
        });
    }

    public CliContext context(Clock clock, InputStream stdin, Sleeper sleeper) {
        return new CliContext(clock, aws(), stdin, sleeper);
    }

    public CliContext context(Clock clock) {
        return context(clock, InputStream.nullInputStream());
    }

    public String stage() {
        return stage;
    }

    /** The tables the catalog declares, by declared name. */
    public Map<String, String> jobTables() {
        return jobTables;
    }

    public String ledgerTable() {
        return ledgerTable;
    }

    public LambdaInvokeStandIn lambda() {
        return lambda;
    }

    /** Each pool's alias ARN, by pool name. */
    public Map<String, String> aliases() {
        return aliases;
    }

    @Override
    public void close() {
        lambda.close();
    }
}
