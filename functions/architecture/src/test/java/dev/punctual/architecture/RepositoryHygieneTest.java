package dev.punctual.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a tool writes while it runs (test databases, build output) is never committed. */
class RepositoryHygieneTest {

    @Test
    void trackedFiles_includeNoToolStateOrBuildOutput() throws Exception {
        List<String> tracked = trackedFiles();

        assertThat(tracked)
                .as("files that tools write while they run")
                .noneMatch(f -> f.endsWith(".jqwik-database")
                        || f.contains("/target/")
                        || f.startsWith("target/")
                        || f.startsWith("cdk.out/")
                        || f.endsWith("dependency-reduced-pom.xml"));
    }

    private static List<String> trackedFiles() throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve(".git"))) {
            root = root.getParent();
        }
        assumeTrue(root != null, "not inside a git checkout");
        Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files")
                .redirectErrorStream(true)
                .start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(git.waitFor(1, TimeUnit.MINUTES)).as("git ls-files ended").isTrue();
        assertThat(git.exitValue()).as("git ls-files: %s", out).isZero();
        return out.lines().toList();
    }
}
