package dev.punctual.cli.verify;

import dev.punctual.infra.StageConfig;
import dev.punctual.job.JobCatalog;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;

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
        results.add(guard("account", () -> CallerAccountCheck.read(aws, deployed, config.environment())));
        results.add(StackStatusCheck.read(deployed).result());
        Map<String, Map<String, String>> environments = new LinkedHashMap<>();
        results.add(guard("flags", () -> {
            environments.putAll(FunctionFlagsCheck.environments(aws, deployed));
            return new FunctionFlagsCheck(flags, environments);
        }));
        Map<String, String> functionsByPool = functionsByPool(environments);
        results.add(guard(
                "schedules",
                () -> ScheduleGroupCheck.read(
                        aws,
                        deployed,
                        ExpectedSchedule.of(catalog, config.retries(), flags.schedulesEnabled()),
                        functionsByPool,
                        deadLetterArn(deployed))));
        results.add(guard("ledger-table", () -> LedgerTableCheck.read(aws, deployed, config.retainData())));
        results.add(guard("dead-letters", () -> DeadLetterQueuesCheck.read(aws, deployed)));
        results.add(guard("alarms", () -> AlarmsCheck.read(aws, deployed)));
        results.add(new DryRunCountsCheck(catalog.jobs().stream()
                        .filter(j -> j.destructive() || j.externalDelivery())
                        .count())
                .result());
        return results;
    }

    /** Pool name to function name, from each function's {@code PUNCTUAL_POOL}. */
    static Map<String, String> functionsByPool(Map<String, Map<String, String>> environments) {
        Map<String, String> byPool = new LinkedHashMap<>();
        environments.forEach((function, env) -> {
            String pool = env.get(StageResources.POOL);
            if (pool != null) {
                byPool.put(pool, function);
            }
        });
        return byPool;
    }

    /** The scheduler's dead-letter queue's ARN, in the stack's partition, account and region. */
    static Optional<String> deadLetterArn(StageInventory deployed) {
        String partition =
                deployed.stackId().split(":", 3).length > 1 ? deployed.stackId().split(":", 3)[1] : "aws";
        return deployed.schedulerDeadLetterQueue()
                .map(queue ->
                        "arn:" + partition + ":sqs:" + deployed.region() + ":" + deployed.account() + ":" + queue);
    }

    /** A check whose reading failed is a FAIL naming the error, so one unreadable service does not hide the rest. */
    static CheckResult guard(String name, Supplier<Check> check) {
        try {
            return check.get().result();
        } catch (SdkException e) {
            return CheckResult.fail(
                    name,
                    "read the stage's " + name,
                    "could not read: " + e.getMessage(),
                    "check the credentials' permissions (the stage's operator policy) and the region");
        }
    }
}
