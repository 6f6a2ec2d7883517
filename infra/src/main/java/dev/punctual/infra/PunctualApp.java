package dev.punctual.infra;

import dev.punctual.PunctualException;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobEnvironment;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageConfigException;
import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.lambda.Code;

/**
 * The CDK app: {@code cdk synth -c stage=dev} builds the stacks of one stage. The templates are a
 * function of the commit and the context alone: synth never reads the clock (see {@link Cadence#REFERENCE}).
 */
public final class PunctualApp {

    /** Where `./mvnw package` leaves the Lambda jar, relative to the repository root. */
    public static final Path JAR = Path.of("functions", "lambda", "target", "punctual-lambda.jar");

    /** Context keys the app reads ({@code -c KEY=VALUE}); docs/deploy.md lists them. */
    public static final String STAGE = "stage";

    public static final String SCHEDULES = "schedules";
    public static final String ACCOUNT = "account";
    public static final String REGION = "region";
    public static final String ALLOW_UNPINNED_ACCOUNT = "allowUnpinnedAccount";

    private PunctualApp() {}

    public static void main(String[] args) {
        App app = new App();
        try {
            // Punctual's own deployment is a team's app like any other: the examples and their jar.
            PunctualStage.builder(app).lambdaJar(locateJar()).build();
        } catch (PunctualException e) {
            System.err.println("punctual: " + e.getMessage());
            System.exit(1);
        }
        app.synth();
    }

    /**
     * Adds the stage named by the {@code stage} context to the app, built from the team's catalog,
     * with cdk-nag's AwsSolutions checks. {@code -c schedules=off} deploys the stage with every job
     * schedule disabled (the kill switch), {@code on} enabled; absent keeps the stage's own setting.
     * {@code -c account=ID -c region=NAME} pin the stage to an account and region.
     */
    public static StageStack build(App app, Code code) {
        StageConfig config = configFromContext(app);
        return build(app, config, catalog(config), code);
    }

    /**
     * The catalog the Lambda jar runs, found the same way (the team's provider plus the built-in jobs);
     * only its definitions are read, so it connects to nothing.
     */
    public static JobCatalog catalog(StageConfig config) {
        return Catalogs.load(JobEnvironment.definitionsOnly(config.flags()));
    }

    /** Adds one stage built from the given catalog. */
    public static StageStack build(App app, StageConfig config, JobCatalog catalog, Code code) {
        StageStack stack = new StageStack(app, "Punctual-" + config.stage(), props(config), config, catalog, code);
        Aspects.of(app).add(AwsSolutionsChecks.Builder.create().verbose(true).build());
        return stack;
    }

    /** The named stage with the command line's overrides, refused when it must be pinned and is not. */
    static StageConfig configFromContext(App app) {
        StageConfig config = Stages.named(context(app, STAGE));
        config = schedulesOverride(config, context(app, SCHEDULES));
        config = config.pinnedTo(context(app, ACCOUNT), context(app, REGION));
        boolean allowUnpinned = "true".equals(context(app, ALLOW_UNPINNED_ACCOUNT));
        if (config.requirePinnedAccount() && !config.environment().accountPinned() && !allowUnpinned) {
            throw new StageConfigException(
                    "account",
                    "",
                    "stage " + config.stage()
                            + " must be pinned to its AWS account, so that a deploy with credentials for another account"
                            + " fails before it changes anything: pin it in Stages.java (StageConfig.pinnedTo) or pass"
                            + " -c account=123456789012 -c region=eu-central-1 (or -c " + ALLOW_UNPINNED_ACCOUNT
                            + "=true to deploy wherever the credentials point)");
        }
        return config;
    }

    private static String context(App app, String key) {
        Object value = app.getNode().tryGetContext(key);
        return value == null ? null : value.toString();
    }

    private static StageConfig schedulesOverride(StageConfig config, String value) {
        if (value == null) {
            return config;
        }
        return switch (value) {
            case "on" -> config.withSchedulesEnabled(true);
            case "off" -> config.withSchedulesEnabled(false);
            default -> throw new StageConfigException(SCHEDULES, value, "on or off");
        };
    }

    /** The jar from the repository root (where cdk.json is) or from the infra module (where tests run). */
    public static Path locateJar() {
        for (Path candidate : List.of(JAR, Path.of("..").resolve(JAR))) {
            if (Files.isRegularFile(candidate)) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        throw new StageConfigException(
                "Lambda code: " + JAR + " not found from " + Path.of("").toAbsolutePath()
                        + "; build it first with ./mvnw -DskipTests package (cdk.json does this for cdk synth/deploy)");
    }

    /**
     * A pinned stage names its account and region; an unpinned one takes what the CDK CLI found in
     * the credentials (CDK_DEFAULT_*), as an environment-agnostic app would.
     */
    private static StackProps props(StageConfig config) {
        StageEnvironment pin = config.environment();
        return StackProps.builder()
                .env(Environment.builder()
                        .account(pin.account().orElse(System.getenv("CDK_DEFAULT_ACCOUNT")))
                        .region(pin.region().orElse(System.getenv("CDK_DEFAULT_REGION")))
                        .build())
                .description("Punctual: scheduled jobs that take effect once per occurrence")
                .build();
    }
}
