package dev.punctual.jepsen;

import dev.punctual.testing.DynamoDbHarness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the suite's OS processes (each a JVM running {@link JepsenWorker} on this JVM's classpath),
 * lets them begin together once every JVM is up, starts again those that halted themselves (up to the
 * profile's bound), and waits for all of them. Nothing here is bounded by the run's length, which
 * depends on the machine: a run ends when the processes have done their counted work. The one time
 * bound is a hang guard: when no process has recorded anything for {@link #STALL}, every process
 * still running is destroyed and reported.
 */
final class JepsenCluster {

    /**
     * No operation of the suite takes longer than a few seconds (a job outliving its lease, a lock
     * wait, a request to the emulator); this long without a single line in any history is a hang, on
     * any machine, not a slow run.
     */
    static final Duration STALL = Duration.ofMinutes(3);

    record Outcome(int launched, int kills, int restarts, List<String> failures, Duration elapsed) {}

    private final JepsenProfile profile;
    private final Path dir;
    private final String endpoint;

    private static final class Slot {
        final int index;
        WorkerConfig config;
        int incarnation = 1;
        Process process;

        Slot(int index, WorkerConfig config) {
            this.index = index;
            this.config = config;
        }
    }

    JepsenCluster(JepsenProfile profile, Path dir, String endpoint) {
        this.profile = profile;
        this.dir = dir;
        this.endpoint = endpoint;
    }

    Outcome run(String ledgerTable, String domainTable, long firstOccurrenceMs)
            throws InterruptedException, IOException {
        long started = System.nanoTime();
        List<Slot> workers = new ArrayList<>();
        List<Slot> operators = new ArrayList<>();
        int kills = 0;
        // Each launch allowed to kill itself takes one of these: at most killBudget kills in all.
        int killTokens = profile.killBudget();
        int restarts = 0;
        int launched = 0;
        List<String> failures = new ArrayList<>();
        // Whichever process wins its first claim, the run covers both: odd workers kill themselves in
        // their first run (and get the kill budget first), even ones outlive their first lease.
        boolean[] mayKill = new boolean[profile.workers()];
        for (int pass = 1; pass >= 0; pass--) {
            for (int i = pass; i < profile.workers() && killTokens > 0; i += 2) {
                mayKill[i] = true;
                killTokens--;
            }
        }
        for (int i = 0; i < profile.processes(); i++) {
            boolean operator = i >= profile.workers();
            String proc = (operator ? "op" + (i - profile.workers()) : "w" + i) + ".1";
            WorkerConfig config = new WorkerConfig(
                    operator ? WorkerConfig.OPERATOR : WorkerConfig.WORKER,
                    proc,
                    dir,
                    ledgerTable,
                    domainTable,
                    profile.seed() * 1000 + i * 10L + 1,
                    profile.skewOf(i),
                    profile.faultProbability(),
                    i % 2 == 0,
                    !operator && mayKill[i],
                    profile.killProbability(),
                    profile.rounds(),
                    firstOccurrenceMs,
                    profile.minHolds(),
                    profile.overrunProbability(),
                    profile.failProbability(),
                    profile.runtimeShare(),
                    profile.refusedShare(),
                    profile.redeliveryShare(),
                    operator ? WorkerConfig.NONE : i % 2 == 0 ? WorkerConfig.OVERRUN_FIRST : WorkerConfig.KILL_FIRST);
            Slot slot = new Slot(i, config);
            slot.process = launch(config);
            launched++;
            (operator ? operators : workers).add(slot);
        }
        Progress progress = new Progress(dir);
        List<Slot> all = new ArrayList<>(workers);
        all.addAll(operators);
        // On a loaded machine JVMs come up seconds apart; a process that began alone would settle every
        // occurrence before the others started and the race would not happen. They start together.
        while (!allReady(all)) {
            if (progress.stalled()) {
                destroy(all, "not ready", failures);
                return new Outcome(launched, kills, restarts, failures, Duration.ofNanos(System.nanoTime() - started));
            }
            Thread.sleep(50);
        }
        Files.writeString(JepsenWorker.goFile(dir), "go\n");
        List<Slot> running = new ArrayList<>(workers);
        while (!running.isEmpty()) {
            if (progress.stalled()) {
                destroy(running, "recorded nothing for " + STALL.toSeconds() + " s", failures);
                break;
            }
            for (Slot slot : List.copyOf(running)) {
                if (slot.process.isAlive()) {
                    continue;
                }
                int exit = slot.process.exitValue();
                if (exit == JepsenWorker.KILLED_EXIT) {
                    kills++;
                    if (restarts < profile.maxRestarts()) {
                        restarts++;
                        slot.incarnation++;
                        String proc = "w" + slot.index + "." + slot.incarnation;
                        slot.config = slot.config.incarnation(
                                proc,
                                profile.seed() * 1000 + slot.index * 10L + slot.incarnation,
                                killTokens > 0,
                                WorkerConfig.NONE);
                        if (slot.config.mayKill()) {
                            killTokens--;
                        }
                        slot.process = launch(slot.config);
                        launched++;
                        continue;
                    }
                } else if (exit != 0) {
                    failures.add(slot.config.proc() + " exited with " + exit + ":\n" + tail(logOf(slot.config)));
                }
                running.remove(slot);
            }
            Thread.sleep(100);
        }
        Files.writeString(JepsenWorker.stopFile(dir).toAbsolutePath(), "stop\n");
        List<Slot> stopping = new ArrayList<>(operators);
        while (!stopping.isEmpty()) {
            if (progress.stalled()) {
                destroy(stopping, "did not stop: recorded nothing for " + STALL.toSeconds() + " s", failures);
                break;
            }
            for (Slot slot : List.copyOf(stopping)) {
                if (!slot.process.isAlive()) {
                    if (slot.process.exitValue() != 0) {
                        failures.add(slot.config.proc() + " exited with " + slot.process.exitValue() + ":\n"
                                + tail(logOf(slot.config)));
                    }
                    stopping.remove(slot);
                }
            }
            Thread.sleep(100);
        }
        return new Outcome(launched, kills, restarts, failures, Duration.ofNanos(System.nanoTime() - started));
    }

    private boolean allReady(List<Slot> slots) {
        for (Slot slot : slots) {
            // One that died before it was ready is not waited for: the loop below reports its exit.
            if (!Files.exists(JepsenWorker.readyFile(dir, slot.config.proc())) && slot.process.isAlive()) {
                return false;
            }
        }
        return true;
    }

    private static void destroy(List<Slot> slots, String why, List<String> failures) throws InterruptedException {
        for (Slot slot : slots) {
            if (slot.process.isAlive()) {
                failures.add(slot.config.proc() + " " + why + "; destroyed");
                slot.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Whether the run still moves: the total size of the run's directory (histories, logs, ready
     * files) grew within {@link #STALL}.
     */
    private static final class Progress {
        private final Path dir;
        private long size = -1;
        private long changedAt = System.nanoTime();

        Progress(Path dir) {
            this.dir = dir;
        }

        boolean stalled() throws IOException {
            long now;
            try (var files = Files.list(dir)) {
                now = files.mapToLong(p -> p.toFile().length()).sum();
            }
            if (now != size) {
                size = now;
                changedAt = System.nanoTime();
                return false;
            }
            return System.nanoTime() - changedAt > STALL.toNanos();
        }
    }

    private Path logOf(WorkerConfig config) {
        return dir.resolve("process-" + config.proc() + ".log");
    }

    private Process launch(WorkerConfig config) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Small, quick-starting JVMs: the suite shares two cores with the emulator and the build.
        command.addAll(
                List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m", "-Xss512k", "-XX:-UsePerfData"));
        command.add("-cp");
        command.add(classpath());
        command.add(JepsenWorker.class.getName());
        command.addAll(config.toArgs());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logOf(config).toFile()));
        builder.environment().put(DynamoDbHarness.ENDPOINT_VARIABLE, endpoint);
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + config.proc(), e);
        }
    }

    /**
     * This JVM's classpath. Under surefire {@code java.class.path} may be a manifest-only jar;
     * surefire also publishes the real test classpath as {@code surefire.test.class.path}. Either works
     * for a child JVM, the real one is preferred.
     */
    static String classpath() {
        String surefire = System.getProperty("surefire.test.class.path");
        String cp = surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
        if (cp == null || cp.isBlank()) {
            throw new IllegalStateException("no classpath to start the workers with");
        }
        return cp;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
