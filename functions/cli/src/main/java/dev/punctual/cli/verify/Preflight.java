package dev.punctual.cli.verify;

import dev.punctual.infra.StageConfig;
import dev.punctual.job.JobCatalog;
import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageFlags;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The read-only checks, in the order an operator would do them by hand (docs/runbook.md, section 1). */
public final class Preflight {

    private Preflight() {}

    /**
     * @param config the stage's config (Stages.java)
     * @param flags the flags the stage was deployed with: the config's, with the schedules switch as deployed
     * @param catalog the catalog the deployed code runs
     * @param dynamoEndpoint an emulator's DynamoDB endpoint (tests), for the jobs' previews
     */
    public static List<CheckResult> run(
            StageAws aws,
            Optional<URI> dynamoEndpoint,
            StageInventory deployed,
            StageConfig config,
            StageFlags flags,
            JobCatalog catalog,
            Clock clock) {
        List<CheckResult> results = new ArrayList<>();
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
                        deployed.schedulerDeadLetterArn())));
        results.add(Guard.run("ledger-table", () -> LedgerTableCheck.read(aws, deployed, config.retainData())));
        results.add(Guard.run("dead-letters", () -> DeadLetterQueuesCheck.read(aws, deployed)));
        results.add(Guard.run("alarms", () -> AlarmsCheck.read(aws, deployed)));
        results.add(Guard.run(
                "dry-run",
                () -> new DryRunCountsCheck(JobPreviews.read(aws, dynamoEndpoint, deployed, flags, catalog, clock))));
        return results;
    }
}
