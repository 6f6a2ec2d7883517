package dev.punctual.infra;

import dev.punctual.PunctualException;
import dev.punctual.examples.ExampleCatalog;
import dev.punctual.job.JobCatalog;
import dev.punctual.stage.StageConfigException;
import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.lambda.Code;

/**
 * The CDK app: {@code cdk synth -c stage=dev} builds the stacks of one stage. Account and region come
 * from the environment the CDK CLI runs in, never from the repository.
 */
public final class PunctualApp {

    /** Where `./mvnw package` leaves the Lambda jar, relative to the repository root. */
    public static final Path JAR = Path.of("functions", "target", "punctual.jar");

    private PunctualApp() {}

    public static void main(String[] args) {
        App app = new App();
        try {
            build(app, Code.fromAsset(locateJar().toString()));
        } catch (PunctualException e) {
            System.err.println("punctual: " + e.getMessage());
            System.exit(1);
        }
        app.synth();
    }

    /**
     * Adds the stage named by the {@code stage} context to the app, built from the example catalog,
     * with cdk-nag's AwsSolutions checks. {@code -c schedules=off} deploys the stage with every job
     * schedule disabled (the kill switch), {@code on} enabled; absent keeps the stage's own setting.
     */
    public static StageStack build(App app, Code code) {
        Object stage = app.getNode().tryGetContext("stage");
        StageConfig config = Stages.named(stage == null ? null : stage.toString());
        config = schedulesOverride(app, config);
        return build(app, config, ExampleCatalog.catalog(), code, Instant.now().truncatedTo(ChronoUnit.DAYS));
    }

    /** Adds one stage built from the given catalog; cadences are measured from {@code cadenceFrom}. */
    public static StageStack build(App app, StageConfig config, JobCatalog catalog, Code code, Instant cadenceFrom) {
        StageStack stack =
                new StageStack(app, "Punctual-" + config.stage(), props(), config, catalog, code, cadenceFrom);
        Aspects.of(app).add(AwsSolutionsChecks.Builder.create().verbose(true).build());
        return stack;
    }

    private static StageConfig schedulesOverride(App app, StageConfig config) {
        Object value = app.getNode().tryGetContext("schedules");
        if (value == null) {
            return config;
        }
        return switch (value.toString()) {
            case "on" -> config.withSchedulesEnabled(true);
            case "off" -> config.withSchedulesEnabled(false);
            default -> throw new StageConfigException("schedules", value.toString(), "on or off");
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

    private static StackProps props() {
        return StackProps.builder()
                .env(Environment.builder()
                        .account(System.getenv("CDK_DEFAULT_ACCOUNT"))
                        .region(System.getenv("CDK_DEFAULT_REGION"))
                        .build())
                .description("Punctual: scheduled jobs that take effect once per occurrence")
                .build();
    }
}
