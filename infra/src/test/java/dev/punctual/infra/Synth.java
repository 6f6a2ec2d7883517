package dev.punctual.infra;

import dev.punctual.job.JobCatalog;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.services.lambda.Code;

/**
 * Synthesises a stage in-process, offline, as `cdk synth -c stage=NAME` would: with the context of the
 * repository's cdk.json (its feature flags change what is synthesised) and then the given keys.
 */
final class Synth {

    /** Tests of cadences alone measure from this day; synth itself measures from {@link Cadence#REFERENCE}. */
    static final Instant CADENCE_FROM = Instant.parse("2026-11-29T00:00:00Z");

    /** The catalog synth deploys: the examples' provider and the built-in jobs. */
    static final JobCatalog CATALOG = PunctualApp.catalog(Stages.named("dev"));

    private Synth() {}

    static StageStack stage(String name) {
        return stage(Stages.named(name), CATALOG);
    }

    static StageStack stage(StageConfig config, JobCatalog catalog) {
        return PunctualApp.build(app(Map.of("stage", config.stage())), config, catalog, code());
    }

    /** Through the app's own context handling (stage and its overrides), as cdk.json runs it. */
    static StageStack fromContext(Map<String, String> context) {
        return PunctualApp.build(app(context), code());
    }

    static App app(Map<String, String> context) {
        Map<String, Object> merged = new LinkedHashMap<>(CdkJson.read().context());
        merged.putAll(context);
        return new App(
                AppProps.builder().context(merged).analyticsReporting(false).build());
    }

    static Code code() {
        return Code.fromAsset(PunctualApp.locateJar().toString());
    }
}
