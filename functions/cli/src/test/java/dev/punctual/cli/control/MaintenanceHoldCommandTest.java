package dev.punctual.cli.control;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.EmulatorStageCli;
import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.cli.PunctualCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code punctual maintenance hold -- COMMAND} against the emulator (issue 23, decision 0036): the stage
 * held for exactly as long as the command runs, its exit status passed through, and a holder killed
 * outright holding it no longer than its lapse. The commands are small shell scripts that tell the test
 * where they are through files, so nothing here waits on a guess of how long a step takes.
 */
class MaintenanceHoldCommandTest {

    /** Long enough for a slow machine between the command's start and the test's look at the stage. */
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private EmulatorStageCli cli;

    @BeforeEach
    void freshStage() {
        cli = new EmulatorStageCli(getClass());
    }

    private Result hold(String... commandAndArgs) {
        List<String> args = new ArrayList<>(List.of("maintenance", "hold"));
        args.addAll(List.of("--reason", "loading members", "--by", "loader", "--wait", "2s", "--"));
        args.addAll(List.of(commandAndArgs));
        return cli.now(2, args.toArray(String[]::new));
    }

    /** As {@link #hold}, with options of hold's own before the command. */
    private Result hold2(String option, String value, String... commandAndArgs) {
        List<String> args = new ArrayList<>(List.of("maintenance", "hold"));
        args.addAll(List.of("--reason", "loading members", "--by", "loader", "--wait", "2s", option, value, "--"));
        args.addAll(List.of(commandAndArgs));
        return cli.now(2, args.toArray(String[]::new));
    }

    private JsonNode status() throws Exception {
        Result status = cli.now(1, "status", DAILY);
        assertThat(status.exitCode()).as(status.err()).isZero();
        return status.json().at("/jobs/0");
    }

    private void awaitFile(Path file, CompletableFuture<?> stillRunning) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!Files.exists(file)) {
            assertThat(stillRunning)
                    .as("the hold ended before its command signalled")
                    .isNotDone();
            assertThat(System.nanoTime())
                    .as("the command did not start within " + PATIENCE)
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void theCommandsExitStatus_isTheHoldsExitStatus() {
        assertThat(hold("sh", "-c", "exit 0").exitCode()).isZero();
        assertThat(hold("sh", "-c", "exit 7").exitCode()).isEqualTo(7);
    }

    @Test
    void aCommandKilledBySignal_exitsAsAShellReportsIt_andOneThatCannotStart_exits127() throws Exception {
        Result killed = hold("sh", "-c", "kill -TERM $$");
        Result missing = hold(dir.resolve("no-such-tool").toString());

        assertThat(killed.exitCode()).as(killed.err()).isEqualTo(128 + 15);
        assertThat(missing.exitCode()).isEqualTo(CommandHold.CANNOT_START);
        assertThat(missing.err()).contains("cannot start " + dir.resolve("no-such-tool"));
        assertThat(status().get("maintenance").isNull())
                .as("released whatever the exit")
                .isTrue();
    }

    @Test
    void whileTheCommandRuns_jobsSkipForMaintenance_statusNamesIt_andOnceItEndsJobsRun() throws Exception {
        Path started = dir.resolve("started");
        Path go = dir.resolve("go");
        String script = "touch '" + started + "'; while [ ! -f '" + go + "' ]; do sleep 0.05; done; exit 3";
        CompletableFuture<Result> holding = CompletableFuture.supplyAsync(() -> hold("sh", "-c", script));

        awaitFile(started, holding);
        Result during = cli.now(1, "run", DAILY);
        JsonNode held = status().get("maintenance");
        Files.createFile(go);
        Result ended = holding.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        Result after = cli.now(1, "run", DAILY);

        assertThat(during.json().at("/occurrences/0/reason").asText())
                .as(during.out())
                .isEqualTo("MAINTENANCE");
        assertThat(held.get("reason").asText()).isEqualTo("loading members");
        assertThat(held.get("set_by").asText()).isEqualTo("loader");
        assertThat(held.get("command").asText()).startsWith("sh -c 'touch ");
        assertThat(Instant.parse(held.get("since").asText()))
                .isBefore(Instant.parse(held.get("until").asText()));
        assertThat(ended.exitCode()).as(ended.err()).isEqualTo(3);
        assertThat(ended.err()).contains("maintenance hold: released; the command exited 3");
        assertThat(after.json().at("/occurrences/0/outcome").asText())
                .as(after.out())
                .isEqualTo("PASS");
        assertThat(status().get("maintenance").isNull()).isTrue();
    }

    /** A CLI of its own (its own JVM, as an operator's shell starts it) holding the stage for a script. */
    private Process holderProcess(String script) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                PunctualCli.class.getName(),
                "maintenance",
                "hold"));
        command.addAll(cli.stageOptions());
        // A wait far longer than the take needs: a holder that dies after the take holds one lapse, not this.
        command.addAll(
                List.of("--reason", "loading members", "--by", "loader", "--lapse", "30s", "--wait", "10m", "--"));
        command.addAll(List.of("sh", "-c", script));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("holder.log").toFile())
                .start();
    }

    private String holderLog() throws IOException {
        Path log = dir.resolve("holder.log");
        return Files.exists(log) ? Files.readString(log) : "(no output)";
    }

    @Test
    void aHolderKilledOutright_holdsTheStageNoLongerThanItsLapse_andJobsRunAfterIt() throws Exception {
        Path started = dir.resolve("started");
        Process holder = holderProcess("touch '" + started + "'; sleep 600");
        try {
            awaitFile(started, holder.onExit());
            Instant until = Instant.parse(status().at("/maintenance/until").asText());
            List<ProcessHandle> children = holder.descendants().toList();
            holder.destroyForcibly(); // SIGKILL: no shutdown hook runs, nothing is given back
            assertThat(holder.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            Instant killed = Instant.now();
            children.forEach(ProcessHandle::destroyForcibly);

            Instant leftUntil = Instant.parse(status().at("/maintenance/until").asText());
            assertThat(leftUntil)
                    .as("the hold left behind ends within the lapse of the kill; the holder said: %s", holderLog())
                    .isBeforeOrEqualTo(killed.plus(Duration.ofSeconds(30)))
                    .isAfterOrEqualTo(until);
            Result after = cli.at(leftUntil.plusSeconds(1), 1, "run", DAILY);
            assertThat(after.json().at("/occurrences/0/outcome").asText())
                    .as(after.out())
                    .isEqualTo("PASS");
        } finally {
            holder.descendants().forEach(ProcessHandle::destroyForcibly);
            holder.destroyForcibly();
        }
    }

    @Test
    void aHolderSentSigterm_stopsItsCommand_givesTheHoldBack_andExitsAsSignalled() throws Exception {
        Path started = dir.resolve("started");
        Path stopped = dir.resolve("stopped");
        Process holder = holderProcess("trap \"touch '" + stopped + "'; exit 0\" TERM; touch '" + started
                + "'; while true; do sleep 0.05; done");
        try {
            awaitFile(started, holder.onExit());
            holder.destroy(); // SIGTERM to the CLI: its shutdown hook stops the command, then releases

            assertThat(holder.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(holder.exitValue()).as(holderLog()).isEqualTo(128 + 15);
            assertThat(stopped)
                    .as("the command was asked to stop; the holder said: %s", holderLog())
                    .exists();
            assertThat(status().get("maintenance").isNull())
                    .as("given back before the CLI exited; the holder said: %s", holderLog())
                    .isTrue();
        } finally {
            holder.descendants().forEach(ProcessHandle::destroyForcibly);
            holder.destroyForcibly();
        }
    }

    @Test
    void aHoldLostUnderItsCommand_stopsTheCommand_andExits75() throws Exception {
        Path started = dir.resolve("started");
        Path finished = dir.resolve("finished");
        // A tool that would run ten minutes; its hold's renewal (every quarter of the 30 s lapse) finds the
        // group taken by another operator's on --force, and stops it.
        String script = "touch '" + started + "'; sleep 600; touch '" + finished + "'";
        CompletableFuture<Result> holding =
                CompletableFuture.supplyAsync(() -> hold2("--lapse", "30s", "sh", "-c", script));
        awaitFile(started, holding);

        Result forced =
                cli.now(2, "maintenance", "on", "--reason", "emergency", "--for", "10m", "--by", "oncall", "--force");
        Result ended = holding.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(ended.exitCode()).as(ended.err()).isEqualTo(CommandHold.HOLD_LOST);
        assertThat(ended.err()).contains("stopping the command", "the command was stopped");
        assertThat(finished)
                .as("the command was stopped, not left to run beside the jobs")
                .doesNotExist();
        assertThat(status().at("/maintenance/set_by").asText())
                .as("the other operator's hold stands")
                .isEqualTo("oncall");
        cli.now(2, "maintenance", "off", "--by", "oncall");
    }

    @Test
    void aHoldMeetingAnotherOperatorsHold_isRefusedNamingThem_andTheCommandNeverRuns() throws Exception {
        cli.now(2, "maintenance", "on", "--reason", "repair", "--for", "1h", "--by", "alice");
        Path ran = dir.resolve("ran");

        Result refused = hold("touch", ran.toString());

        Result chosen = hold2("--conflict-exit", "99", "touch", ran.toString());

        assertThat(chosen.exitCode())
                .as("flock -E: the exit a script chose for a hold not taken")
                .isEqualTo(99);
        assertThat(chosen.err()).contains("maintenance is already on", "the command did not run");
        assertThat(refused.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err()).contains("maintenance is already on", "alice", "the command did not run");
        assertThat(ran).doesNotExist();
        assertThat(status().at("/maintenance/set_by").asText()).isEqualTo("alice");
    }

    @Test
    void holdsOptions_areRefusedWhereTheyDoNotBelong_namingWhatIsAccepted() {
        Result commandWithOn = cli.now(2, "maintenance", "on", "--reason", "x", "--for", "1h", "--", "ls");
        Result noCommand = cli.now(2, "maintenance", "hold", "--reason", "x");
        Result forWithHold = cli.now(2, "maintenance", "hold", "--reason", "x", "--for", "1h", "--", "ls");
        Result shortLapse = cli.now(2, "maintenance", "hold", "--reason", "x", "--lapse", "5s", "--", "ls");
        Result noSeparator = cli.now(2, "maintenance", "hold", "--reason", "x", "ls");
        Result noSeparatorWithOptions = cli.now(2, "maintenance", "hold", "--reason", "x", "ls", "-la");
        Result longWait = cli.now(2, "maintenance", "hold", "--reason", "x", "--wait", "1h", "--", "ls");

        assertThat(commandWithOn.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(commandWithOn.err()).contains("COMMAND 'ls': goes with hold only");
        assertThat(noCommand.err()).contains("COMMAND: required with hold");
        assertThat(forWithHold.err()).contains("--for: not an option of hold");
        assertThat(shortLapse.err()).contains("--lapse: '5s' is out of range; accepted: 30s to 15m");
        assertThat(noSeparator.err()).contains("COMMAND 'ls': goes after --");
        // The command's own option is met first; the mistake is still the missing --, not an unknown -la.
        assertThat(noSeparatorWithOptions.err())
                .contains("COMMAND: goes after --, with its options ('-la' is not an option of hold)")
                .doesNotContain("did you mean --lapse");
        assertThat(longWait.err()).contains("--wait: '1h' is out of range for hold; accepted: at most 20m");
        assertThat(List.of(noCommand, forWithHold, shortLapse, noSeparator, noSeparatorWithOptions, longWait))
                .extracting(Result::exitCode)
                .containsOnly(PunctualCli.INVALID_INPUT);
    }
}
