package dev.punctual.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launchers' build lock (.mvn/build-lock.sh), run by sh as bin/punctual runs it, in real concurrent
 * processes: one holder at a time, and a holder that died never blocks the next build. Only outcomes
 * are asserted; each process is given minutes, never a time it must finish within.
 */
class BuildLockTest {

    private static final Path SCRIPT = BomTest.repositoryRoot().resolve(".mvn/build-lock.sh");

    @TempDir
    Path temp;

    @Test
    void fourLaunchersAtOnce_holdTheLockOneAtATime_andEachGetsIt() throws Exception {
        Path lock = temp.resolve("target/build.lock");
        Path log = temp.resolve("log");
        List<Process> launchers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            launchers.add(sh(". '" + SCRIPT + "'; punctual_lock '" + lock + "'; echo \"in $$\" >> '" + log
                    + "'; sleep 0.3; echo \"out $$\" >> '" + log + "'; punctual_unlock"));
        }
        for (Process launcher : launchers) {
            assertThat(launcher.waitFor(5, TimeUnit.MINUTES)).isTrue();
            assertThat(launcher.exitValue()).isZero();
        }

        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(8);
        List<String> holders = new ArrayList<>();
        for (int i = 0; i < lines.size(); i += 2) {
            String pid = lines.get(i).replace("in ", "");
            assertThat(lines.get(i)).as("line %d", i).startsWith("in ");
            assertThat(lines.get(i + 1))
                    .as("the holder leaves before anyone enters")
                    .isEqualTo("out " + pid);
            holders.add(pid);
        }
        assertThat(holders).doesNotHaveDuplicates().hasSize(4);
        assertThat(lock).as("released by the last holder").doesNotExist();
    }

    @Test
    void aLockLeftByAHolderThatWasKilled_isTakenOverByTheNextLauncher() throws Exception {
        Path lock = temp.resolve("target/build.lock");
        // The holder replaces its shell with sleep, so killing that pid kills the lock's holder, no trap run.
        Process holder = sh(". '" + SCRIPT + "'; punctual_lock '" + lock + "'; exec sleep 300");
        Path pid = lock.resolve("pid");
        while (!(Files.exists(pid) && !Files.readString(pid).isBlank())) {
            assertThat(holder.isAlive()).as("the holder took the lock").isTrue();
            Thread.sleep(20);
        }
        holder.destroyForcibly();
        assertThat(holder.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(lock).as("a killed holder leaves its lock behind").exists();

        Process next = sh(". '" + SCRIPT + "'; punctual_lock '" + lock + "'; echo took; punctual_unlock");

        assertThat(next.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(output(next)).contains("took");
        assertThat(next.exitValue()).isZero();
        assertThat(lock).doesNotExist();
    }

    @Test
    void aLauncherThatExitsWithoutUnlocking_releasesTheLockOnExit() throws Exception {
        Path lock = temp.resolve("target/build.lock");

        Process failing = sh(". '" + SCRIPT + "'; punctual_lock '" + lock + "'; exit 3");

        assertThat(failing.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(failing.exitValue()).isEqualTo(3);
        assertThat(lock).doesNotExist();
    }

    private static Process sh(String script) throws IOException {
        return new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
    }

    private static String output(Process process) throws IOException {
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
