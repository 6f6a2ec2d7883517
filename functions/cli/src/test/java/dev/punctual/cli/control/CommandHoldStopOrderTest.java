package dev.punctual.cli.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stopped command's processes are signalled parents first: a shell whose running step died first would
 * go on to its next step (CI once saw {@code sh -c 'sleep 600; touch finished'} touch).
 */
class CommandHoldStopOrderTest {

    private static final Duration PATIENCE = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void everyParentComesBeforeItsChildren_soNoShellOutlivesItsStepBySignal() throws Exception {
        Path ready = dir.resolve("ready");
        // shell -> shell -> sleep, and a second sleep beside the inner shell: three levels, two branches
        // (the trailing ':' keeps the inner shell from exec'ing its last command).
        Process outer = new ProcessBuilder(
                        "sh", "-c", "sleep 600 & sh -c \"touch '" + ready + "'; sleep 600; :\" & wait")
                .start();
        try {
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (outer.descendants().count() < 3 || !Files.exists(ready)) {
                assertThat(System.nanoTime())
                        .as("the tree did not form within " + PATIENCE)
                        .isLessThan(deadline);
                Thread.sleep(20);
            }

            List<ProcessHandle> ordered = CommandHold.parentsFirst(outer.toHandle());

            assertThat(ordered.getFirst()).isEqualTo(outer.toHandle());
            assertThat(ordered).hasSize(1 + (int) outer.descendants().count());
            for (int i = 0; i < ordered.size(); i++) {
                ProcessHandle child = ordered.get(i);
                int at = i;
                child.parent()
                        .filter(ordered::contains)
                        .ifPresent(parent -> assertThat(ordered.indexOf(parent))
                                .as("%s is listed before its parent %s", child.pid(), parent.pid())
                                .isLessThan(at));
            }
        } finally {
            outer.descendants().forEach(ProcessHandle::destroyForcibly);
            outer.destroyForcibly();
        }
    }
}
