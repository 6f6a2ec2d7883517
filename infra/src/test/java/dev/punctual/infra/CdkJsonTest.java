package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.cxapi.CloudAssembly;

/**
 * cdk.json is what `cdk synth` reads first. These tests keep it to what the pinned aws-cdk-lib accepts
 * and recommends; the CI's real `npx aws-cdk synth` (.ci/synth) exercises the same file end to end.
 */
class CdkJsonTest {

    @Test
    void context_holdsEveryFlagThePinnedCdkLibRecommends_withItsRecommendedValue() throws Exception {
        Map<String, Object> recommended = recommendedFlags();
        Map<String, Object> context = CdkJson.read().context();

        assertThat(recommended)
                .as("flags in aws-cdk-lib's recommended-feature-flags.json")
                .hasSizeGreaterThan(50);
        assertThat(context).containsAllEntriesOf(recommended);
    }

    @Test
    void context_holdsNothingButFlagsTheLibRecommends() throws Exception {
        assertThat(CdkJson.read().context().keySet())
                .as("a key here that the lib does not recommend is a leftover or a typo")
                .isSubsetOf(recommendedFlags().keySet());
    }

    @Test
    void synth_withTheContextOfCdkJson_succeedsForEveryStage() {
        for (String stage : Stages.names()) {
            App app = Synth.app(Map.of("stage", stage, PunctualApp.ALLOW_UNPINNED_ACCOUNT, "true"));
            PunctualApp.build(app, Synth.code());
            CloudAssembly assembly = app.synth();
            assertThat(assembly.getStackByName("Punctual-" + stage).getTemplate())
                    .as(stage)
                    .isNotNull();
        }
    }

    /** Guards the test above: the flag that broke every `cdk synth` of this project is refused. */
    @Test
    void synth_withAFlagOnlyCdkV1Knew_isRefusedByTheLib() {
        Map<String, Object> context = new LinkedHashMap<>(CdkJson.read().context());
        context.put("@aws-cdk/core:enableStackNameDuplicates", false);
        context.put("stage", "dev");

        assertThatThrownBy(() -> {
                    App app = new App(AppProps.builder().context(context).build());
                    PunctualApp.build(app, Synth.code());
                    app.synth();
                })
                .hasMessageContaining("Unsupported feature flag '@aws-cdk/core:enableStackNameDuplicates'");
    }

    @Test
    void app_buildsTheLambdaJarAndRunsPunctualApp() {
        assertThat(CdkJson.read().app()).startsWith("./mvnw ").contains("-pl infra -am", "package", "exec:java");
    }

    /** recommended-feature-flags.json from the jsii bundle inside the aws-cdk-lib jar on the class path. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> recommendedFlags() throws IOException, Json.NotJsonException {
        String version = System.getProperty("aws-cdk-lib.version");
        assertThat(version)
                .as("the aws-cdk-lib.version system property (set by the build)")
                .isNotBlank();
        String bundle = "/software/amazon/awscdk/aws-cdk-lib@" + version + ".jsii.tgz";
        try (InputStream in = CdkJsonTest.class.getResourceAsStream(bundle)) {
            assertThat(in).as(bundle).isNotNull();
            return (Map<String, Object>) Json.read(Tar.entry(
                            new GZIPInputStream(in), "package/recommended-feature-flags.json")
                    .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                    .orElseThrow(() -> new IllegalStateException("no recommended-feature-flags.json in " + bundle)));
        }
    }
}
