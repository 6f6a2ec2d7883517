package dev.punctual.infra;

import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.services.lambda.Code;

/** Synthesises a stage in-process, offline, as `cdk synth -c stage=NAME` would. */
final class Synth {

    private Synth() {}

    static StageStack stage(String name) {
        App app = new App(AppProps.builder()
                .context(Map.of("stage", name))
                .analyticsReporting(false)
                .build());
        return PunctualApp.build(app, Code.fromAsset(PunctualApp.locateJar().toString()));
    }
}
