package dev.punctual.cli.schedules;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.StageDiscovery;
import dev.punctual.cli.stage.StageTarget;
import dev.punctual.entities.EntitySchedules;
import dev.punctual.entities.EntityTombstones;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.stage.StageOutputs;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.ConflictException;
import software.amazon.awssdk.services.scheduler.model.ResourceNotFoundException;

/**
 * Where a command finds a stage's entity schedules and their ledger side (a delete's tombstone, a put's
 * clearing of it): on a deployed stage ({@code --stage}), its stack's outputs, read with
 * CloudFormation as the services read them; on an emulator ({@code --endpoint}), the outputs a stage of
 * that name would have, so the same client ({@link EntitySchedules}) runs on the emulator's Scheduler API
 * and DynamoDB with the emulator's dummy credentials.
 *
 * <p>On an emulator the entity group ({@code punctual-<stage>-entities}) and, for a command that writes
 * the ledger, the ledger table ({@code --ledger-table}, else {@code punctual-<stage>-ledger}, the one
 * {@code run --endpoint} uses) are created when missing, once the command's input has been checked, as
 * the other commands create their tables. The emulator's scheduler stores schedules and never fires
 * them: an entity's occurrence is delivered there with {@code run JOB --entity E --endpoint URL}. The
 * targets' ARNs name the stage's functions, roles and queue in the emulator's account
 * ({@value #EMULATOR_ACCOUNT}, moto's), which nothing invokes.
 */
final class EntityAccess implements AutoCloseable {

    /** The account moto serves by default; the ARNs of an emulator's targets name it. */
    static final String EMULATOR_ACCOUNT = "123456789012";

    /** The stage's outputs: the stack's, or on an emulator the ones a stage would have. */
    final Map<String, String> outputs;

    final String stage;
    final boolean emulator;
    final SchedulerClient scheduler;
    final DynamoDbClient dynamo;

    private EntityAccess(
            Map<String, String> outputs,
            String stage,
            boolean emulator,
            SchedulerClient scheduler,
            DynamoDbClient dynamo) {
        this.outputs = Map.copyOf(outputs);
        this.stage = stage;
        this.emulator = emulator;
        this.scheduler = scheduler;
        this.dynamo = dynamo;
    }

    /**
     * Connects to the stage's entity side.
     *
     * @param ledgerTable {@code --ledger-table}, on an emulator only (a deployed stage's is its stack's)
     * @param createMissing on an emulator, create the entity group and the ledger table when missing (a
     *     command that writes); a read creates the group only
     */
    static EntityAccess open(
            CliContext context,
            StageTarget where,
            Optional<String> ledgerTable,
            JobCatalog catalog,
            boolean createMissing) {
        String stage = where.stageName();
        if (!where.emulator()) {
            if (ledgerTable.isPresent()) {
                throw new OperatorInputException("--ledger-table: a deployed stage's entity tombstones are on its"
                        + " stack's ledger table; accepted: with --endpoint (an emulator's table)");
            }
            Region region = context.aws().region(where.region);
            Map<String, String> outputs;
            try (CloudFormationClient cloudFormation = context.aws().cloudFormation(region)) {
                outputs = StageDiscovery.outputs(cloudFormation, region.id(), stage);
            }
            return new EntityAccess(
                    outputs,
                    stage,
                    false,
                    context.aws().scheduler(region),
                    context.aws().dynamo(region));
        }
        OperatorSession.requireUrl(where.endpoint);
        Region region = OperatorSession.emulatorRegion(context, where.region);
        URI endpoint = URI.create(where.endpoint);
        AwsAccess local =
                AwsAccess.loopback(region.id(), Map.of(AwsAccess.SCHEDULER, endpoint, AwsAccess.DYNAMODB, endpoint));
        String ledger = ledgerTable.orElse("punctual-" + stage + "-ledger");
        EntityAccess access = new EntityAccess(
                emulatorOutputs(stage, region, ledger, catalog),
                stage,
                true,
                local.scheduler(region),
                local.dynamo(region));
        try {
            access.createGroupIfMissing();
            if (createMissing) {
                LedgerTable.createIfMissing(access.dynamo, ledger);
            }
        } catch (RuntimeException e) {
            access.close();
            throw e;
        }
        return access;
    }

    /**
     * The outputs a stage named {@code stage} would have for its entity schedules, in the emulator's
     * account: its entity group, ledger table, each pool's {@code live} alias and entity scheduler role
     * (the pools of the catalog's per-entity jobs) and the scheduler's dead-letter queue.
     */
    static Map<String, String> emulatorOutputs(String stage, Region region, String ledgerTable, JobCatalog catalog) {
        Map<String, String> outputs = new LinkedHashMap<>();
        outputs.put(StageOutputs.STAGE_NAME, stage);
        outputs.put(StageOutputs.LEDGER_TABLE, ledgerTable);
        outputs.put(StageOutputs.ENTITY_SCHEDULE_GROUP, EntityScheduleName.group(stage));
        catalog.jobs().stream()
                .filter(JobDefinition::isPerEntity)
                .map(JobDefinition::pool)
                .map(FunctionPool::name)
                .distinct()
                .forEach(pool -> {
                    outputs.put(
                            StageOutputs.poolAlias(pool),
                            "arn:aws:lambda:" + region.id() + ":" + EMULATOR_ACCOUNT + ":function:punctual-" + stage
                                    + "-" + pool + ":live");
                    outputs.put(
                            StageOutputs.entitySchedulerRole(pool),
                            "arn:aws:iam::" + EMULATOR_ACCOUNT + ":role/punctual-" + stage + "-entity-scheduler-"
                                    + pool);
                });
        outputs.put(
                StageOutputs.SCHEDULER_DEAD_LETTERS,
                "arn:aws:sqs:" + region.id() + ":" + EMULATOR_ACCOUNT + ":punctual-" + stage + "-scheduler-dlq");
        return outputs;
    }

    /** The entity client on this stage, its tombstones naming {@code caller}. */
    EntitySchedules schedules(JobCatalog catalog, String caller) {
        return new EntitySchedules(
                scheduler,
                catalog,
                SchedulesCommand.targets(outputs, catalog, stage),
                EntityTombstones.onStage(dynamo, outputs, caller));
    }

    /** What a refusal suggests to reach this stage again: {@code --stage NAME}, or {@code --endpoint URL}. */
    static String where(StageTarget target) {
        return target.emulator() ? "--endpoint URL" : "--stage " + target.stageName();
    }

    /**
     * Read first, created only when absent: moto's CreateScheduleGroup replaces a group of that name, its
     * schedules with it, where AWS's refuses (ConflictException).
     */
    private void createGroupIfMissing() {
        String group = outputs.get(StageOutputs.ENTITY_SCHEDULE_GROUP);
        try {
            scheduler.getScheduleGroup(r -> r.name(group));
        } catch (ResourceNotFoundException missing) {
            try {
                scheduler.createScheduleGroup(r -> r.name(group));
            } catch (ConflictException exists) {
                // created by another command at the same time
            }
        }
    }

    @Override
    public void close() {
        try {
            scheduler.close();
        } finally {
            dynamo.close();
        }
    }
}
