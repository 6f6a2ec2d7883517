package dev.punctual.cli.init;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code punctual init} from the packaged jars, as a person runs it: the shaded punctual-cli.jar
 * (bin/punctual) and the plain jar (a team's bin/punctual). A test on the classes directory cannot see
 * what packaging leaves out (jar tools drop {@code .gitignore}, which once left init unable to start).
 */
class CliJarIT {

    private static final Path TARGET = Path.of("target");

    @TempDir
    Path temp;

    @Test
    void theShadedJar_writesEveryFileTheClassesDirectoryDoes() throws Exception {
        assertWritesTheRepository(TARGET.resolve("punctual-cli.jar"));
    }

    @Test
    void thePlainJar_writesEveryFileTheClassesDirectoryDoes() throws Exception {
        try (Stream<Path> jars = Files.list(TARGET)) {
            Path plain = jars.filter(p -> p.getFileName().toString().matches("punctual-cli-.*\\d(-SNAPSHOT)?\\.jar"))
                    .findFirst()
                    .orElseThrow();
            // The plain jar and its dependencies, without this module's classes directories, which hold
            // every resource and would hide one the jar left out.
            String separator = System.getProperty("path.separator");
            List<String> dependencies = Stream.of(
                            System.getProperty("java.class.path").split(separator))
                    .filter(entry -> !Path.of(entry).toAbsolutePath().startsWith(TARGET.toAbsolutePath()))
                    .toList();
            assertWritesTheRepository(plain + separator + String.join(separator, dependencies));
        }
    }

    private void assertWritesTheRepository(Path jar) throws Exception {
        assertWritesTheRepository(jar.toString());
    }

    private void assertWritesTheRepository(String classPath) throws Exception {
        Path fromJar = temp.resolve("from-jar");
        Path fromClasses = temp.resolve("from-classes");
        run(classPath, fromJar);
        new TeamRepository(new TeamCoordinates("com.example", "from-classes", "com.example.fromclasses"))
                .writeTo(Files.createDirectories(fromClasses));

        assertThat(relative(fromJar)).isEqualTo(relative(fromClasses)).contains(".gitignore", "mvnw");
    }

    private static void run(String classPath, Path dir) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        classPath,
                        "dev.punctual.cli.PunctualCli",
                        "init",
                        dir.toString(),
                        "--artifact-id",
                        "from-classes",
                        "--package",
                        "com.example.fromclasses")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
    }

    /** The files written, without the repository git init makes beside them (where git is installed). */
    private static List<String> relative(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> !root.relativize(f).startsWith(".git"))
                    .map(f -> root.relativize(f).toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        }
    }
}
