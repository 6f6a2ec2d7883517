package __PACKAGE__.infra;

import dev.punctual.infra.PunctualStage;
import java.nio.file.Path;
import software.amazon.awscdk.App;

/**
 * The CDK app cdk.json runs: {@code npx aws-cdk@__CDK_VERSION__ synth -c stage=dev} builds the stage it
 * names (dev, staging, prod: Punctual's stages and their safety defaults) from this repository's catalog.
 */
public final class StageApp {

    private StageApp() {}

    public static void main(String[] args) {
        App app = new App();
        PunctualStage.builder(app)
                .lambdaJar(Path.of("jobs", "target", "__ARTIFACT_ID__-lambda.jar"))
                .build();
        app.synth();
    }
}
