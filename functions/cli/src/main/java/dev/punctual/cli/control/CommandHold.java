package dev.punctual.cli.control;

import dev.punctual.PunctualException;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.ExitCodes;
import dev.punctual.cli.output.RelativeTime;
import dev.punctual.hold.HeldMaintenance;
import dev.punctual.hold.HoldListener;
import dev.punctual.hold.HoldOutcome;
import dev.punctual.hold.HoldTerms;
import dev.punctual.ledger.Busy;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.RunLedger;
import dev.punctual.observability.Redactor;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code maintenance hold -- COMMAND}: the stage held for exactly as long as a command runs, the way
 * {@code flock} wraps one (decision 0036). The command inherits this process's input and output; the
 * hold's own lines go to stderr, so what the command prints stays as it is. Its exit status is passed
 * through: 128 + N for a command killed by signal N (as a shell reports it), 127 for one that cannot be
 * started, 75 (EX_TEMPFAIL) when the hold was lost under it: the command is then stopped (SIGTERM, then
 * SIGKILL), since jobs of the lost group may run beside it, and 75 says so whatever it exited with.
 */
final class CommandHold {

    /** The command could not be started (not found, not executable), as a shell says it. */
    static final int CANNOT_START = 127;

    /** Some group's hold ended under the command: it was stopped, or it had succeeded, not alone (EX_TEMPFAIL). */
    static final int HOLD_LOST = 75;

    /** How long a signalled CLI waits for its command to end after SIGTERM before killing it. */
    private static final Duration TERMINATION_GRACE = Duration.ofSeconds(10);

    /** Wide enough for any of its lines: each names at most one command line, stored at most 300 long. */
    private static final Redactor SHOWN = new Redactor(100_000);

    private final RunLedger ledger;
    private final Clock clock;
    private final PrintWriter err;
    /** What to exit with when the hold is not taken, instead of 2 (another hold) or 1 (jobs still ran). */
    private final java.util.Optional<Integer> conflictExit;

    CommandHold(RunLedger ledger, Clock clock, PrintWriter err, java.util.Optional<Integer> conflictExit) {
        this.ledger = ledger;
        this.clock = clock;
        this.err = err;
        this.conflictExit = conflictExit;
    }

    /** The command line as stored and shown: each word, quoted as a shell would need it. */
    static String commandLine(List<String> command) {
        return command.stream().map(CommandHold::quoted).collect(Collectors.joining(" "));
    }

    private static String quoted(String word) {
        if (!word.isEmpty()
                && word.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_./=:,+@%".indexOf(c) >= 0)) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** Take the hold, run the command under it, give it back; returns the exit status to exit with. */
    int run(HoldTerms terms, List<String> command, String stage) {
        HoldListener listener = new HoldListener() {
            @Override
            public void lost(String group, LockState now) {
                say("lost " + group + ": "
                        + (now.maintenance() != null
                                ? "maintenance " + now.maintenance().shown()
                                : "now held by " + now.leaseHolder())
                        + "; stopping the command (SIGTERM, then SIGKILL after "
                        + TERMINATION_GRACE.toSeconds() + " s): it no longer runs alone, and the hold exits "
                        + HOLD_LOST);
                stopForLoss();
            }

            @Override
            public void renewalFailed(String group, PunctualException fault) {
                say("could not renew " + group + " (" + fault.getMessage() + "); retrying");
            }
        };
        HeldMaintenance held = switch (HeldMaintenance.take(ledger, terms, clock, listener)) {
            case HoldOutcome.Held h -> h.hold();
            case HoldOutcome.Refused refused -> {
                String line = "maintenance is already on: " + refused.by().group() + " ("
                        + refused.by().hold().shown() + "); the command did not run; accepted: wait until it"
                        + " ends, or maintenance off --by "
                        + refused.by().hold().shownSetBy();
                if (conflictExit.isEmpty()) {
                    throw new OperatorInputException("hold: " + line);
                }
                say(line);
                yield null;
            }
            case HoldOutcome.StillRunning still -> {
                Optional<Instant> entityRunsUntil = still.runs().stream()
                        .filter(b -> MaintenanceReport.ENTITY_RUNS.equals(b.holder()))
                        .map(Busy::until)
                        .max(Comparator.naturalOrder());
                say("still running after the wait: "
                        + still.runs().stream()
                                .map(b -> b.group() + " (" + b.holder() + ")")
                                .toList()
                        + "; nothing is held and the command did not run: run it again, or with a longer --wait"
                        + entityRunsUntil
                                .map(until -> " (an entity run that started before the hold is waited out until 15m"
                                        + " and the skew tolerance after the last one started, here " + until
                                        + ": --wait " + wholeMinutesUntil(until) + " or more)")
                                .orElse(""));
                yield null;
            }
        };
        if (held == null) {
            return conflictExit.orElse(ExitCodes.FAILURE);
        }
        say("stage " + stage + " held (" + String.join(", ", held.heldUntil().keySet()) + ") for "
                + commandLine(command) + "; renewed every " + RelativeTime.readable(terms.renewEvery())
                + ", it lapses " + RelativeTime.readable(terms.lapse()) + " after its last renewal");
        return runHeld(held, command);
    }

    /** Guards {@link #child}, {@link #stopping} and {@link #stoppedForLoss}. */
    private final Object command = new Object();

    /** The command, once started. */
    private Process child;

    /** The CLI was signalled or a group was lost: a command not started yet is never started. */
    private boolean stopping;

    /** A group's hold was lost while the command ran, so the command was stopped (decision 0036). */
    private boolean stoppedForLoss;

    /**
     * A group was lost under the command (someone's {@code on --force} or {@code off --force}, or no
     * renewal for a whole lapse): jobs of that group may run now, so a tool that must run alone is
     * stopped rather than left to run on beside them (issue 40, 6). On the renewer's thread, so the
     * stop (which waits up to its grace) runs on a thread of its own.
     */
    private void stopForLoss() {
        Process p;
        synchronized (command) {
            stopping = true;
            stoppedForLoss = true;
            p = child;
        }
        if (p != null) {
            Thread stopper = new Thread(() -> stop(p), "punctual-hold-lost");
            stopper.setDaemon(true);
            stopper.start();
        }
    }

    private int runHeld(HeldMaintenance held, List<String> command) {
        // SIGINT, SIGTERM, SIGHUP: the command (and what it started) is asked to stop, then the hold is
        // given back. SIGKILL runs nothing: the hold then lapses by itself, and the command runs on unheld.
        Thread onSignal = new Thread(() -> {
            Process p;
            synchronized (this.command) {
                stopping = true; // a command not started yet is never started
                p = child;
            }
            if (p != null) {
                stop(p);
            }
            giveBack(held);
        });
        Runtime.getRuntime().addShutdownHook(onSignal);
        int status;
        try {
            Process started;
            synchronized (this.command) {
                if (stopping) {
                    throw new InterruptedException(
                            stoppedForLoss
                                    ? "the hold was lost before the command started"
                                    : "signalled before the" + " command started");
                }
                started = new ProcessBuilder(command).inheritIO().start();
                child = started;
            }
            status = started.waitFor(); // Linux: 128 + N when signal N killed it
        } catch (IOException cannotStart) {
            say("cannot start " + command.getFirst() + ": " + cannotStart.getMessage());
            status = CANNOT_START;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Process p;
            synchronized (this.command) {
                p = child;
            }
            if (p != null) {
                stop(p);
            }
            status = ExitCodes.FAILURE;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException shuttingDown) {
            // The hook is giving the hold back; close() below waits for it to finish.
        }
        boolean released = giveBack(held);
        boolean stoppedForLoss;
        synchronized (this.command) {
            stoppedForLoss = this.stoppedForLoss;
        }
        if (!held.intact() || stoppedForLoss) {
            say("the hold was lost on " + held.lost() + " while the command ran: jobs of those groups may have"
                    + " run during it"
                    + (stoppedForLoss ? "; the command was stopped (it exited " + status + ")" : ""));
            return status == 0 || stoppedForLoss ? HOLD_LOST : status;
        }
        say((released ? "released" : "not released (it lapses by itself)") + "; the command exited " + status);
        return status;
    }

    /**
     * SIGTERM to the command and every process it started (a shell's children outlive the shell
     * otherwise), then, after the grace, SIGKILL to what is left, waiting for each to end.
     *
     * <p>Parents are signalled before their children: a shell whose running step is killed first goes on to
     * its next step before its own signal arrives ({@code sh -c 'slow; touch done'} would touch), while a
     * shell already signalled cannot start anything more.
     */
    private static void stop(Process p) {
        List<ProcessHandle> all = parentsFirst(p.toHandle());
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TERMINATION_GRACE.toNanos();
        for (ProcessHandle h : all) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                h.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException late) {
                h.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                h.destroyForcibly();
            }
        }
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(TERMINATION_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception gone) {
                // SIGKILL cannot be refused; a process still listed is a zombie nobody waits for.
            }
        }
    }

    /** The process and its descendants, breadth first: every parent comes before its children. */
    static List<ProcessHandle> parentsFirst(ProcessHandle root) {
        List<ProcessHandle> ordered = new java.util.ArrayList<>();
        java.util.ArrayDeque<ProcessHandle> next = new java.util.ArrayDeque<>(List.of(root));
        while (!next.isEmpty()) {
            ProcessHandle h = next.poll();
            ordered.add(h);
            h.children().forEach(next::add);
        }
        return ordered;
    }

    private boolean giveBack(HeldMaintenance held) {
        try {
            held.close();
            return true;
        } catch (PunctualException unreachable) {
            say(unreachable.getMessage());
            return false;
        }
    }

    /**
     * One of the hold's own lines, redacted and on one line as every refusal is: they name the command
     * (a command line is where a password is most often typed; the hold stores it redacted too) and
     * what the ledger or the operating system said.
     */
    private void say(String line) {
        synchronized (err) {
            err.println("maintenance hold: " + SHOWN.line(line));
            err.flush();
        }
    }

    /** The wait that reaches {@code until} from now, in whole minutes (at least one), as --wait takes it. */
    private String wholeMinutesUntil(Instant until) {
        long seconds = Math.max(0, Duration.between(clock.instant(), until).toSeconds());
        return Math.max(1, (seconds + 59) / 60) + "m";
    }
}
