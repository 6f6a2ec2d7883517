package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.job.CatalogProvider;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.json.Json;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Checks what the real CDK CLI wrote: `.ci/synth` runs `npx aws-cdk@<pinned> synth -c stage=S` through
 * cdk.json into {@code $PUNCTUAL_CDK_OUT/S}, exactly as docs/deploy.md tells a user, and `.ci/run` then
 * runs the tests with that variable set. Without it (a developer's `./mvnw verify`) these are skipped;
 * the same contracts are checked on in-process synths by {@link PayloadContractTest} and
 * {@link DeterminismTest}.
 *
 * <p>The CLI synth is of the deployment cdk.json describes (Punctual's own: the examples), whose catalog
 * is not on these tests' class path (they have the fixtures'). The contract is checked against the
 * catalog the assembly's own Lambda jar runs, read from that jar: what the deployed handler will parse.
 */
class CliSynthOutputTest {

    private static final String CDK_OUT = "PUNCTUAL_CDK_OUT";

    @Test
    void devAndProd_synthesisedByTheCli_honourThePayloadContract() throws Exception {
        for (String stage : List.of("dev", "prod")) {
            Path dir = stageDir(stage);
            PayloadContractTest.assertHonoured(jobSchedules(dir), deployedCatalog(dir, stage));
        }
    }

    @Test
    void prod_synthesisedByTheCliWithAPinnedAccount_isBoundToThatAccountAndRegion() throws Exception {
        Map<String, Object> manifest = json(stageDir("prod").resolve("manifest.json"));
        Map<?, ?> artifact = (Map<?, ?>) ((Map<?, ?>) manifest.get("artifacts")).get("Punctual-prod");

        assertThat(artifact.get("environment"))
                .isEqualTo("aws://" + System.getenv("PUNCTUAL_CI_ACCOUNT") + "/" + System.getenv("PUNCTUAL_CI_REGION"));
    }

    private static Path stageDir(String stage) {
        String root = System.getenv(CDK_OUT);
        Assumptions.assumeTrue(root != null && !root.isBlank(), CDK_OUT + " is not set: no CLI synth to check");
        Path dir = Path.of(root, stage);
        assertThat(dir.resolve("manifest.json"))
                .as("the CLI's cloud assembly for " + stage)
                .isRegularFile();
        return dir;
    }

    /**
     * The catalog the assembly's Lambda jar runs: the team provider its service file names (found in the
     * jar, not on the class path) plus the built-in jobs, those Synth.CATALOG adds to the fixtures' own.
     */
    @SuppressWarnings("resource") // the catalog's jobs are classes of the jar; the loader stays open for them
    private static JobCatalog deployedCatalog(Path dir, String stage) throws IOException {
        List<Path> jars;
        try (Stream<Path> files = Files.list(dir)) {
            jars = files.filter(p -> p.getFileName().toString().matches("asset\\.[0-9a-f]+\\.jar"))
                    .toList();
        }
        assertThat(jars).as("the Lambda jar in " + dir).hasSize(1);
        URLClassLoader jar = new URLClassLoader(
                new URL[] {jars.getFirst().toUri().toURL()}, CliSynthOutputTest.class.getClassLoader());
        List<CatalogProvider> providers = ServiceLoader.load(CatalogProvider.class, jar).stream()
                .filter(p -> p.type().getClassLoader() == jar)
                .map(ServiceLoader.Provider::get)
                .toList();
        assertThat(providers).as("catalog providers in " + jars.getFirst()).hasSize(1);
        JobEnvironment definitions =
                JobEnvironment.definitionsOnly(Stages.named(stage).flags());
        Set<String> fixtures = new FixtureCatalog()
                .catalog(definitions).jobs().stream().map(JobDefinition::id).collect(Collectors.toSet());
        List<JobDefinition> builtIn = Synth.CATALOG.jobs().stream()
                .filter(j -> !fixtures.contains(j.id()))
                .toList();
        assertThat(builtIn).as("the built-in jobs").isNotEmpty();
        return providers.getFirst().catalog(definitions).plus(builtIn);
    }

    /** Every AWS::Scheduler::Schedule in the assembly's templates that targets a job, by name. */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> jobSchedules(Path dir) throws Exception {
        Map<String, Map<String, Object>> schedules = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file :
                    files.filter(p -> p.toString().endsWith(".template.json")).toList()) {
                Map<String, Object> resources = (Map<String, Object>) json(file).getOrDefault("Resources", Map.of());
                for (Object resource : resources.values()) {
                    Map<String, Object> r = (Map<String, Object>) resource;
                    Map<String, Object> properties = (Map<String, Object>) r.get("Properties");
                    String name = properties == null ? null : String.valueOf(properties.get("Name"));
                    if ("AWS::Scheduler::Schedule".equals(r.get("Type"))
                            && !name.startsWith(StageStack.KEEP_WARM_PREFIX)) {
                        schedules.put(name, properties);
                    }
                }
            }
        }
        return schedules;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Path file) throws IOException, Json.NotJsonException {
        return (Map<String, Object>) Json.read(Files.readString(file));
    }
}
