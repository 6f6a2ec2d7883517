package dev.punctual.infra;

import dev.punctual.stage.StageConfigException;
import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app: {@code cdk synth -c stage=dev} builds the stacks of one stage. Account and region come
 * from the environment the CDK CLI runs in, never from the repository.
 */
public final class PunctualApp {

    private PunctualApp() {}

    public static void main(String[] args) {
        App app = new App();
        try {
            build(app);
        } catch (StageConfigException e) {
            System.err.println("punctual: " + e.getMessage());
            System.exit(1);
        }
        app.synth();
    }

    /** Adds the stage named by the {@code stage} context to the app, with cdk-nag's AwsSolutions checks. */
    public static StageStack build(App app) {
        Object stage = app.getNode().tryGetContext("stage");
        StageConfig config = Stages.named(stage == null ? null : stage.toString());
        StageStack stack = new StageStack(app, "Punctual-" + config.stage(), props(), config);
        Aspects.of(app).add(AwsSolutionsChecks.Builder.create().verbose(true).build());
        return stack;
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
