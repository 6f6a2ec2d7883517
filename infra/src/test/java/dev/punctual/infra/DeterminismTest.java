package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.cxapi.CloudAssembly;

/** `cdk diff` after a no-op change is empty only if two synths of one commit write the same bytes. */
class DeterminismTest {

    /** Anything that reads the wall clock or randomness makes a template depend on when it was built. */
    private static final Pattern NONDETERMINISTIC = Pattern.compile(
            "Instant\\.now\\(|Clock\\.system|LocalDate(Time)?\\.now\\(|ZonedDateTime\\.now\\(|currentTimeMillis\\("
                    + "|nanoTime\\(|new Date\\(|UUID\\.randomUUID|new Random\\(|Math\\.random\\(");

    @Test
    void twoSynthsOfTheSameStage_writeByteIdenticalTemplates() throws IOException {
        for (String stage : List.of("dev", "prod")) {
            assertThat(templates(synth(stage))).as(stage).isEqualTo(templates(synth(stage)));
        }
    }

    @Test
    void infraSources_neverReadTheClockOrRandomness() throws IOException {
        Path sources = Path.of("src", "main", "java");
        try (Stream<Path> files = Files.walk(sources)) {
            List<String> offending = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> NONDETERMINISTIC.matcher(read(p)).find())
                    .map(Path::toString)
                    .toList();
            assertThat(offending).isEmpty();
        }
    }

    /**
     * Map.of iterates in an order salted per JVM, and the CDK keeps that order in tree.json (and in
     * some properties), so two CLI synths differed. A map of two or more entries must be ordered.
     */
    @Test
    void infraSources_buildNoUnorderedMapOfSeveralEntries() throws IOException {
        Path sources = Path.of("src", "main", "java");
        try (Stream<Path> files = Files.walk(sources)) {
            List<String> offending = files.filter(p -> p.toString().endsWith(".java"))
                    .flatMap(p -> unorderedMaps(read(p)).stream().map(m -> p.getFileName() + ": " + m))
                    .toList();
            assertThat(offending).isEmpty();
        }
    }

    @Test
    void unorderedMapScan_findsATwoEntryMapOf_andAcceptsAnOrderedOne() {
        assertThat(unorderedMaps("x(Map.of(\"a\", f(1, 2), \"b\", 2));")).hasSize(1);
        assertThat(unorderedMaps("x(new TreeMap<>(Map.of(\"a\", 1, \"b\", 2)));"))
                .isEmpty();
        assertThat(unorderedMaps("x(Map.of(\"a\", f(1, 2)));")).isEmpty();
    }

    /** Map.of calls with more than one pair (three or more top-level commas) not wrapped in a TreeMap. */
    static List<String> unorderedMaps(String source) {
        List<String> found = new ArrayList<>();
        int at = source.indexOf("Map.of(");
        while (at >= 0) {
            int depth = 0;
            int commas = 0;
            int i = at + "Map.of".length();
            do {
                char c = source.charAt(i);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
                commas += c == ',' && depth == 1 ? 1 : 0;
                i++;
            } while (depth > 0 && i < source.length());
            boolean ordered =
                    source.substring(Math.max(0, at - 40), at).stripTrailing().endsWith("TreeMap<>(");
            if (commas >= 3 && !ordered) {
                found.add(source.substring(at, Math.min(i, at + 60)).replaceAll("\\s+", " "));
            }
            at = source.indexOf("Map.of(", i);
        }
        return found;
    }

    /** Guards the scan above against matching nothing. */
    @Test
    void clockPattern_findsAClockRead() {
        assertThat(NONDETERMINISTIC
                        .matcher("Instant from = Instant.now().truncatedTo(DAYS);")
                        .find())
                .isTrue();
    }

    private static CloudAssembly synth(String stage) {
        App app = Synth.app(Map.of("stage", stage, PunctualApp.ALLOW_UNPINNED_ACCOUNT, "true"));
        PunctualApp.build(app, Synth.code());
        return app.synth();
    }

    /** Every template file of the assembly, nested ones included, by file name. */
    private static Map<String, String> templates(CloudAssembly assembly) throws IOException {
        Map<String, String> templates = new TreeMap<>();
        try (Stream<Path> files = Files.list(Path.of(assembly.getDirectory()))) {
            for (Path file :
                    files.filter(p -> p.toString().endsWith(".template.json")).toList()) {
                templates.put(file.getFileName().toString(), Files.readString(file));
            }
        }
        assertThat(templates).as("templates in " + assembly.getDirectory()).hasSizeGreaterThan(1);
        return templates;
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
