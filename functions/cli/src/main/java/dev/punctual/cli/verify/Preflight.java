package dev.punctual.cli.verify;

import dev.punctual.infra.StageConfig;
import dev.punctual.job.JobCatalog;
import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageFlags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The read-only checks, in the order an operator would do them by hand (docs/runbook.md, section 1). */
public final class Preflight {

    private Preflight() {}

    /**
     * @param config the stage's config (Stages.java)
     * @param flags the flags the stage was deployed with: the config's, with the schedules switch as deployed
     * @param catalog the catalog the deployed code runs
     */
    public static List<CheckResult> run(
            StageAws aws, StageInventory deployed, StageConfig config, StageFlags flags, JobCatalog catalog) {
        List<CheckResult> results = new ArrayList<>();
        // Read once for the checks that need it, inside each one's guard: a denied ListStackResources is
        // their FAIL lines, not the end of the report.
        Supplier<StackResources> owned = once(() -> StackResources.read(aws.cloudFormation(), deployed.stackName()));
        results.add(Guard.run("account", () -> CallerAccountCheck.read(aws, deployed, config.environment())));
        results.add(StackStatusCheck.read(deployed).result());
        results.add(Guard.run(
                "flags",
                () -> FunctionFlagsCheck.read(aws, deployed, flags, new SkewTolerance(config.skewTolerance()))));
        Map<String, String> functionsByPool = deployed.functionsByPool();
        results.add(Guard.run(
                "schedules",
                () -> ScheduleGroupCheck.read(
                        aws,
                        deployed,
                        ExpectedSchedule.of(catalog, config.retries(), flags.schedulesEnabled()),
                        functionsByPool,
                        owned.get().schedulerDeadLetterQueue().map(deployed::queueArn))));
        // Only a catalog with a per-entity job has an entity group and a services' policy (docs/entities.md).
        List<String> entityPools = catalog.jobs().stream()
                .filter(dev.punctual.job.JobDefinition::isPerEntity)
                .map(job -> job.pool().name())
                .distinct()
                .toList();
        if (!entityPools.isEmpty()) {
            results.add(Guard.run("entity-group", () -> EntityGroupCheck.read(aws, deployed, entityPools)));
        }
        // Only a catalog with a long job has state machines (decision 0039).
        List<ExpectedLongJob> longJobs = catalog.jobs().stream()
                .filter(dev.punctual.job.JobDefinition::isLong)
                .map(job -> ExpectedLongJob.of(deployed.stage(), job))
                .toList();
        if (!longJobs.isEmpty()) {
            results.add(Guard.run("long-jobs", () -> LongJobsCheck.read(aws, deployed, longJobs)));
        }
        results.add(Guard.run("ledger-table", () -> LedgerTableCheck.read(aws, deployed, config.retainData())));
        results.add(Guard.run("dead-letters", () -> DeadLetterQueuesCheck.read(aws, owned.get())));
        results.add(Guard.run("alarms", () -> AlarmsCheck.read(aws, owned.get())));
        results.add(Guard.run("access", () -> FunctionAccessCheck.read(aws, deployed)));
        results.add(Guard.run(
                "dry-run",
                () -> new DryRunCountsCheck(
                        JobPreviews.read(new StageInvoker(aws.lambda(), deployed.aliases()), catalog))));
        if (!catalog.maintenanceConditions().isEmpty()) {
            results.add(Guard.run(
                    "conditions",
                    () -> MaintenanceConditionsCheck.read(
                            new StageInvoker(aws.lambda(), deployed.aliases()), catalog)));
        }
        return results;
    }

    /** The first answer, kept; a failed read is tried again by the next check that asks (and fails it too). */
    private static <T> Supplier<T> once(Supplier<T> read) {
        List<T> kept = new ArrayList<>(1);
        return () -> {
            if (kept.isEmpty()) {
                kept.add(read.get());
            }
            return kept.getFirst();
        };
    }
}
