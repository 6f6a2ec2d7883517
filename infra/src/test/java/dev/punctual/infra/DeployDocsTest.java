package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.stage.StageOutputs;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs tell users to run the CLI version CI runs, and name every context key the app reads and every
 * stack output key.
 */
class DeployDocsTest {

    private static final Pattern CLI = Pattern.compile("aws-cdk@([0-9][^\\s`]*)");

    @Test
    void everyCdkCliCommandInTheDocs_usesThePinnedVersion() throws IOException {
        String pinned =
                Files.readString(root().resolve("infra/cdk-cli.version")).strip();
        List<String> versions = new ArrayList<>();
        for (Path doc : docs()) {
            Matcher m = CLI.matcher(Files.readString(doc));
            while (m.find()) {
                versions.add(doc.getFileName() + ": " + m.group(1));
            }
        }

        assertThat(versions).isNotEmpty().allSatisfy(v -> assertThat(v).endsWith(": " + pinned));
    }

    @Test
    void deployDoc_namesEveryContextKeyTheAppReads() throws IOException {
        String deploy = Files.readString(root().resolve("docs/deploy.md"));

        for (String key : List.of(
                PunctualApp.STAGE,
                PunctualApp.SCHEDULES,
                PunctualApp.ACCOUNT,
                PunctualApp.REGION,
                PunctualApp.ALLOW_UNPINNED_ACCOUNT)) {
            assertThat(deploy).contains("| `" + key + "` |");
        }
    }

    /** Every output key (and key prefix) of {@link StageOutputs}, as the "Deploy a stage" paragraph lists them. */
    @Test
    void deployDoc_namesEveryStageOutputKey() throws IOException, IllegalAccessException {
        String deploy = Files.readString(root().resolve("docs/deploy.md"));
        List<String> keys = new ArrayList<>();
        for (Field field : StageOutputs.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers())
                    && field.getType() == String.class
                    && !field.getName().equals("STACK_PREFIX")) {
                keys.add((String) field.get(null));
            }
        }

        assertThat(keys).contains(StageOutputs.ENTITY_SCHEDULE_GROUP, StageOutputs.SCHEDULER_DEAD_LETTERS);
        assertThat(keys).allSatisfy(key -> assertThat(deploy).contains("`" + key));
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(root().resolve("README.md")));
        try (Stream<Path> files = Files.list(root().resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
        }
        return docs;
    }

    private static Path root() {
        return CdkJson.path().toAbsolutePath().getParent();
    }
}
