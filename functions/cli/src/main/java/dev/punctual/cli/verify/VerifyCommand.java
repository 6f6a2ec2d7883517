package dev.punctual.cli.verify;

import dev.punctual.infra.StageConfig;
import dev.punctual.infra.Stages;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobEnvironment;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageFlags;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

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
    public static final int FAILED = 1;

    private final Clock clock;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--stage", required = true, paramLabel = "NAME", description = "The deployed stage")
    String stage;

    @Option(
            names = "--activate",
            description = "Also run the activation checks; they write the ledger (a manual run of each job marked"
                    + " safe to verify, maintenance on and off)")
    boolean activate;

    @Option(
            names = "--output",
            paramLabel = "FORMAT",
            defaultValue = "table",
            description = "table or json (default: ${DEFAULT-VALUE})")
    String output;

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

    @Option(names = "--region", paramLabel = "REGION", description = "AWS region (default: AWS_REGION)")
    String region;

    @Option(
            names = "--endpoint",
            paramLabel = "URL",
            description = "An emulator serving every AWS API verify calls, e.g. http://127.0.0.1:5000; default: AWS")
    String endpoint;

    @Option(
            names = "--lambda-endpoint",
            paramLabel = "URL",
            description = "A separate endpoint for Lambda Invoke (a local stand-in); default: --endpoint")
    String lambdaEndpoint;

    public VerifyCommand(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Integer call() {
        if (!output.equals("table") && !output.equals("json")) {
            throw new StageConfigException("--output", output, "table or json");
        }
        StageConfig config = Stages.named(stage);
        StageFlags flags = deployedFlags(config);
        JobCatalog catalog = Catalogs.load(JobEnvironment.definitionsOnly(flags));
        try (StageAws aws = StageAws.connect(
                region(), credentials(), uri("--endpoint", endpoint), uri("--lambda-endpoint", lambdaEndpoint))) {
            StageInventory inventory = StageDiscovery.discover(aws, stage);
            List<CheckResult> results = new ArrayList<>(Preflight.run(aws, inventory, config, flags, catalog));
            if (activate) {
                results.addAll(
                        Activation.run(aws, inventory, flags, catalog, clock, Duration.ofSeconds(logWaitSeconds)));
            }
            VerifyReport report = new VerifyReport(stage, activate, results);
            PrintWriter out = spec.commandLine().getOut();
            out.println(output.equals("json") ? report.json() : report.table());
            return report.failed() ? FAILED : 0;
        }
    }

    private StageFlags deployedFlags(StageConfig config) {
        if (schedules == null) {
            return config.flags();
        }
        return switch (schedules) {
            case "on" -> config.withSchedulesEnabled(true).flags();
            case "off" -> config.withSchedulesEnabled(false).flags();
            default -> throw new StageConfigException("--schedules", schedules, "on or off");
        };
    }

    private Region region() {
        if (region != null) {
            return Region.of(region);
        }
        String fromEnv = System.getenv("AWS_REGION");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Region.of(fromEnv);
        }
        if (endpoint != null) {
            return Region.US_EAST_1;
        }
        throw new StageConfigException("--region", "", "a region such as eu-central-1 (or set AWS_REGION)");
    }

    /** An emulator takes dummy credentials; AWS the default chain (profile, SSO, role). */
    private AwsCredentialsProvider credentials() {
        return endpoint == null
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-local", "punctual-local"));
    }

    private static Optional<URI> uri(String option, String value) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(value);
            if (uri.getHost() != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                return Optional.of(uri);
            }
        } catch (java.net.URISyntaxException e) {
            // refused below
        }
        throw new StageConfigException(option, value, "an http(s) URL with a host, e.g. http://127.0.0.1:5000");
    }
}
