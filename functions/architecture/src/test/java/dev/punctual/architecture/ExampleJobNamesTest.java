package dev.punctual.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.examples.ExampleCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.stage.StageFlags;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Punctual's tests hold for any team's catalog: outside the examples' own tests, none names an example
 * job. A test that needed an example's job id would pass here and go red for the first team that
 * replaces the examples with its own module (issue 20); such tests run on the fixtures' catalog instead.
 * This test reads the ids from the examples' catalog and writes none, so it holds itself to its rule.
 */
class ExampleJobNamesTest {

    /**
     * The tests of the examples themselves: their module, the Lambda jar that packages them (LambdaJarIT)
     * and the demo, which is written for them.
     */
    static final Set<String> EXAMPLES_OWN_TESTS =
            Set.of("functions/examples/src/test", "functions/lambda/src/test", "functions/demo/src/test");

    /**
     * Example ids that are also the documentation's own example, which Punctual's tests declare for
     * themselves: {@code tenant-report} is docs/entities.md's per-entity job, and the tests that name it
     * build their own job of that name (EntityStage, EntityWatchdogTest, ...), so they hold with any
     * catalog. The examples got a job of that name (issue 38, item 7) so that
     * events/scheduled-tenant-report-acme.json runs against them.
     */
    static final Set<String> DECLARED_BY_THE_TESTS_TOO = Set.of("tenant-report");

    @Test
    void noTestOutsideTheExamplesOwn_namesAnExampleJob() throws IOException {
        Path root = repositoryRoot();
        List<String> ids = exampleJobIds().stream()
                .filter(id -> !DECLARED_BY_THE_TESTS_TOO.contains(id))
                .toList();
        Pattern named = naming(ids);

        List<String> offending = new ArrayList<>();
        for (Path tests : testDirectories(root)) {
            try (Stream<Path> files = Files.walk(tests)) {
                files.filter(Files::isRegularFile).forEach(file -> {
                    var matcher = named.matcher(read(file));
                    if (matcher.find()) {
                        offending.add(root.relativize(file) + " names " + matcher.group(1));
                    }
                });
            }
        }

        assertThat(ids).as("the examples' job ids, read from their catalog").hasSizeGreaterThan(3);
        assertThat(offending)
                .as(
                        "tests outside %s that name an example job; use the fixtures' catalog"
                                + " (dev.punctual.fixtures.FixtureCatalog)",
                        EXAMPLES_OWN_TESTS)
                .isEmpty();
    }

    @Test
    void theScan_findsANameWhereOneIs() {
        List<String> ids = exampleJobIds();
        Pattern named = naming(ids);

        assertThat(ids).as("the examples' job ids, read from their catalog").isNotEmpty();
        for (String id : ids) {
            assertThat(named.matcher("cli(\"run\", \"" + id + "\")").find())
                    .as("a test naming %s", id)
                    .isTrue();
            assertThat(named.matcher("\"job\":\"" + id + "\"").find()).isTrue();
            assertThat(named.matcher("events/scheduled-" + id + ".json").find())
                    .as("a file name holding %s as a part", id)
                    .isFalse();
            assertThat(named.matcher(id + "s").find()).isFalse();
        }
    }

    /** Any of the ids as a whole name: not a part of a longer one (a file name, a plural). */
    private static Pattern naming(List<String> ids) {
        return Pattern.compile("(?<![A-Za-z0-9-])("
                + String.join("|", ids.stream().map(Pattern::quote).toList())
                + ")(?![A-Za-z0-9-])");
    }

    /** The ids the examples' catalog declares, read from it rather than written here. */
    private static List<String> exampleJobIds() {
        return new ExampleCatalog()
                .catalog(JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev"))).jobs().stream()
                        .map(JobDefinition::id)
                        .toList();
    }

    /** Every module's src/test, the infra module's included, except the examples' own. */
    private static List<Path> testDirectories(Path root) throws IOException {
        List<Path> modules = new ArrayList<>();
        try (Stream<Path> functions = Files.list(root.resolve("functions"))) {
            functions.forEach(modules::add);
        }
        modules.add(root.resolve("infra"));
        return modules.stream()
                .map(module -> module.resolve("src").resolve("test"))
                .filter(Files::isDirectory)
                .filter(tests -> !EXAMPLES_OWN_TESTS.contains(
                        root.relativize(tests).toString().replace('\\', '/')))
                .toList();
    }

    /** The directory holding functions/ and infra/, walking up from where the tests run. */
    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null
                && !(Files.isDirectory(dir.resolve("functions")) && Files.isDirectory(dir.resolve("infra")))) {
            dir = dir.getParent();
        }
        assertThat(dir)
                .as("the repository root above %s", Path.of("").toAbsolutePath())
                .isNotNull();
        return dir;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.nio.charset.MalformedInputException binary) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
