package dev.punctual.infra;

import dev.punctual.job.CatalogProvider;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobEnvironment;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import software.amazon.awscdk.App;
import software.amazon.awscdk.services.lambda.Code;

/**
 * What a team's CDK app instantiates: one Punctual stage (its {@link StageStack}) from the team's catalog
 * and Lambda jar. The stage is the one {@code cdk synth -c stage=NAME} names, with the same context
 * overrides as Punctual's own app ({@code -c schedules=on|off}, {@code -c account=... -c region=...});
 * the catalog is the one the Lambda jar finds (the provider META-INF/services names), unless given.
 *
 * <pre>{@code
 * App app = new App();
 * PunctualStage.builder(app).lambdaJar(Path.of("jobs/target/jobs-lambda.jar")).build();
 * app.synth();
 * }</pre>
 */
public final class PunctualStage {

    private PunctualStage() {}

    public static Builder builder(App app) {
        return new Builder(app);
    }

    /** Validates on {@link #build()}: a jar that does not exist is named, with how to build it. */
    public static final class Builder {

        private final App app;
        private Path lambdaJar;
        private CatalogProvider catalog;

        private Builder(App app) {
            this.app = Objects.requireNonNull(app, "app");
        }

        /** The shaded jar of the runtime and the team's jobs, which every function of the stage runs. */
        public Builder lambdaJar(Path jar) {
            this.lambdaJar = Objects.requireNonNull(jar, "jar");
            return this;
        }

        /**
         * The team's catalog, when the app should not find it on its class path; it must be the one the
         * Lambda jar's META-INF/services names, or the schedules would not match what runs.
         */
        public Builder catalog(CatalogProvider provider) {
            this.catalog = Objects.requireNonNull(provider, "provider");
            return this;
        }

        /** Adds the stage to the app: its stack, with cdk-nag's AwsSolutions checks on the app. */
        public StageStack build() {
            if (lambdaJar == null) {
                throw new StageConfigException(
                        "lambdaJar",
                        "",
                        "the path of the team's shaded Lambda jar (PunctualStage.builder(app).lambdaJar(...))");
            }
            if (!Files.isRegularFile(lambdaJar)) {
                throw new StageConfigException("Lambda code: " + lambdaJar + " not found from "
                        + Path.of("").toAbsolutePath()
                        + "; build it first with ./mvnw -DskipTests package (cdk.json does this for cdk synth/deploy)");
            }
            StageConfig config = PunctualApp.configFromContext(app);
            JobCatalog jobs = catalog == null
                    ? PunctualApp.catalog(config)
                    : Catalogs.load(JobEnvironment.definitionsOnly(config.flags()), catalog);
            return PunctualApp.build(
                    app,
                    config,
                    jobs,
                    Code.fromAsset(lambdaJar.toAbsolutePath().normalize().toString()));
        }
    }
}
