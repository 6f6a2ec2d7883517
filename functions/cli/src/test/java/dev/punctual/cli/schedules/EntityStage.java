package dev.punctual.cli.schedules;

import dev.punctual.cli.CliRun;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.stage.StageOutputs;
import dev.punctual.testing.DynamoDbHarness;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.scheduler.SchedulerClient;

/**
 * A deployed stage's entity side, on moto, as the CLI's entity commands find it: the outputs the CDK app
 * writes for a stage with a per-entity job in pool {@code default}, its entity group and its ledger table
 * (where a delete writes an entity's tombstone and a put clears it); and the CLI run as in production with
 * some commands on a test's own catalog.
 */
public final class EntityStage {

    private static final String ACCOUNT = DeployedStageFixture.ACCOUNT;
    private static final String REGION = DeployedStageFixture.REGION;

    /** A per-entity job (parameter {@code locale}) and a job of one schedule, both in pool default. */
    public static final String REPORT = "tenant-report";

    public static final String DAILY = "daily-digest";

    public static final JobCatalog CATALOG = JobCatalog.of(
            JobDefinition.builder(REPORT)
                    .schedule("0 9 * * *", "UTC")
                    .perEntity(EntityJob.parameters("locale"))
                    .job(services -> context -> JobResult.empty())
                    .build(),
            JobDefinition.builder(DAILY)
                    .schedule("0 2 * * *", "UTC")
                    .job(services -> context -> JobResult.empty())
                    .build());

    private EntityStage() {}

    /** The entity outputs alone: the group, pool default's entity scheduler role, the dead-letter queue. */
    public static Map<String, String> entityOutputs(String stage) {
        Map<String, String> outputs = new LinkedHashMap<>();
        outputs.put(StageOutputs.ENTITY_SCHEDULE_GROUP, EntityScheduleName.group(stage));
        outputs.put(
                StageOutputs.entitySchedulerRole("default"),
                "arn:aws:iam::" + ACCOUNT + ":role/punctual-" + stage + "-entity-scheduler-default");
        outputs.put(
                StageOutputs.SCHEDULER_DEAD_LETTERS,
                "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":punctual-" + stage + "-scheduler-dlq");
        return outputs;
    }

    /** A stage's name, ledger, group and pool default; with {@code entities}, its entity outputs too. */
    static Map<String, String> outputs(String stage, boolean entities) {
        Map<String, String> outputs = new LinkedHashMap<>();
        outputs.put(StageOutputs.STAGE_NAME, stage);
        outputs.put(StageOutputs.LEDGER_TABLE, ledgerTable(stage));
        outputs.put(StageOutputs.SCHEDULE_GROUP, "punctual-" + stage);
        outputs.put(
                StageOutputs.poolAlias("default"),
                "arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:punctual-" + stage + "-default:live");
        if (entities) {
            outputs.putAll(entityOutputs(stage));
        }
        return outputs;
    }

    static String ledgerTable(String stage) {
        return "punctual-" + stage + "-ledger";
    }

    /** The stack with {@link #outputs outputs(stage, true)}, the entity group and the ledger table. */
    static void deploy(AwsAccess aws, String stage) {
        DeployedStageFixture.createStack(aws, stage, outputs(stage, true));
        createEntityGroup(aws, stage);
        LedgerTable.create(DynamoDbHarness.client(), ledgerTable(stage));
    }

    /** The group the stage creates for its entity schedules. */
    public static void createEntityGroup(AwsAccess aws, String stage) {
        try (SchedulerClient scheduler = aws.scheduler(DynamoDbHarness.REGION)) {
            scheduler.createScheduleGroup(r -> r.name(EntityScheduleName.group(stage)));
        }
    }

    /**
     * The CLI as in production, {@code replacing} some commands (on a test's catalog), printing each command
     * line and what it printed, as the docs show them.
     */
    public static CliRun cli(
            CliContext context, UnaryOperator<Map<String, Supplier<Object>>> replacing, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), context, replacing, args);
        CliRun run = new CliRun(code, out.toString(), err.toString());
        System.out.println(
                "$ punctual " + String.join(" ", args) + "\n" + run.out() + run.err() + "(exit " + run.code() + ")");
        return run;
    }
}
