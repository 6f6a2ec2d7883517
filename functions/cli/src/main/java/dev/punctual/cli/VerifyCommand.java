package dev.punctual.cli;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.DeployedStage;
import dev.punctual.cli.stage.StageDiscovery;
import dev.punctual.cli.verify.Activation;
import dev.punctual.cli.verify.CheckResult;
import dev.punctual.cli.verify.Preflight;
import dev.punctual.cli.verify.StageAws;
import dev.punctual.cli.verify.StageInventory;
import dev.punctual.cli.verify.VerifyReport;
import dev.punctual.infra.StageConfig;
import dev.punctual.infra.Stages;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobEnvironment;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageFlags;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.model.Stack;

/**
 * {@code punctual verify --stage NAME [--activate]}: the source material's pre-install and activation
 * checks, run against a deployed stage. One line per check and a summary; exit 0 only when nothing
 * failed (docs/runbook.md, section 2).
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = "Checks a deployed stage before and after activation: one line per check, exit 0 when"
                + " nothing failed.")
public final class VerifyCommand implements Callable<Integer> {

    /** Exit code when a check failed. */
    public static final int FAILED = PunctualCli.FAILURE;

    private final CliContext context;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--stage", required = true, paramLabel = "NAME", description = "The deployed stage")
    String stage;

    @Option(
            names = "--profile",
            paramLabel = "NAME",
            description = "The AWS profile whose credentials and region to use (default: AWS_PROFILE, then the"
                    + " default profile)")
    String profile;

    @Option(
            names = "--activate",
            description = "Also run the activation checks; they write the ledger (a manual run of each job marked"
                    + " safe to verify, maintenance on and off)")
    boolean activate;

    @Mixin
    OutputOptions output;

    @Option(
            names = "--schedules",
            paramLabel = "on|off",
            description = "How the stage was deployed (-c schedules=on|off); default: its config's switch")
    String schedules;

    @Option(
            names = "--log-wait",
            paramLabel = "SECONDS",
            defaultValue = "60",
            description = "How long --activate looks for a run's outcome line in the logs (default: ${DEFAULT-VALUE})")
    int logWaitSeconds;

    @Option(
            names = "--region",
            paramLabel = "REGION",
            description = "AWS region (default: AWS_REGION); the stage's stack is looked for there")
    String region;

    /** @param context the clock and AWS access (loopback endpoints in tests) */
    public VerifyCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (!Stages.names().contains(stage)) {
            throw new OperatorInputException("--stage: '" + stage + "' is not a stage of this build; accepted: "
                    + String.join(", ", Stages.names()) + " (Stages.java)");
        }
        StageConfig config = Stages.named(stage);
        StageFlags flags = deployedFlags(config);
        JobCatalog catalog = Catalogs.load(JobEnvironment.definitionsOnly(flags));
        Clock clock = context.clock();
        AwsAccess access = context.aws();
        Region where = access.region(region);
        try (StageAws aws = StageAws.connect(
                where,
                access.credentials(),
                access.endpoints(),
                AwsAccess.DYNAMODB,
                access.cloudFormation(where),
                access.lambda(where),
                access.logs(where))) {
            StageInventory inventory = inventory(
                    aws, stage, catalog.pools().stream().map(FunctionPool::name).toList());
            List<CheckResult> results = new ArrayList<>(Preflight.run(aws, inventory, config, flags, catalog));
            if (activate) {
                results.addAll(Activation.run(
                        aws, inventory, flags, catalog, clock, Duration.ofSeconds(logWaitSeconds), context.sleeper()));
            }
            VerifyReport report = new VerifyReport(stage, activate, results);
            PrintWriter out = spec.commandLine().getOut();
            out.println(output.isJson() ? report.json() : report.table());
            return report.failed() ? FAILED : 0;
        }
    }

    /**
     * The stage discovery's record ({@link StageDiscovery#find}: tables, aliases, group, log groups, saved
     * queries) plus the stack's status; the checks read the stack's queues and alarms from its resources.
     */
    static StageInventory inventory(StageAws aws, String stage, Collection<String> pools) {
        DeployedStage deployed =
                StageDiscovery.find(aws.cloudFormation(), aws.region().id(), stage, pools);
        Stack stack = aws.cloudFormation()
                .describeStacks(r -> r.stackName(deployed.stackName()))
                .stacks()
                .getFirst();
        return new StageInventory(
                stage,
                deployed.stackName(),
                stack.stackId(),
                stack.stackStatusAsString(),
                deployed.poolAliases(),
                deployed.ledgerTable(),
                deployed.jobTables(),
                deployed.scheduleGroup(),
                deployed.allLogGroups(),
                deployed.savedQueries());
    }

    private StageFlags deployedFlags(StageConfig config) {
        if (schedules == null) {
            return config.flags();
        }
        return switch (schedules) {
            case "on" -> config.withSchedulesEnabled(true).flags();
            case "off" -> config.withSchedulesEnabled(false).flags();
            default ->
                throw new OperatorInputException(
                        "--schedules: '" + schedules + "' is not accepted; accepted: on or off");
        };
    }
}
