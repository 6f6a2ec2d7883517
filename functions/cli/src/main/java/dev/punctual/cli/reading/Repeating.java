package dev.punctual.cli.reading;

import dev.punctual.cli.input.DurationArgument;
import dev.punctual.ledger.Sleeper;
import java.time.Duration;
import picocli.CommandLine;

/** The wait between two rounds of a command that repeats until Ctrl-C ({@code status --watch}, {@code logs --follow}). */
final class Repeating {

    private Repeating() {}

    /**
     * {@code --every}: the interval between rounds, refused without the option that repeats ({@code
     * --watch}, {@code --follow}) or outside {@code [shortest, 1h]}; {@code usual} when not given.
     */
    static Duration interval(
            CommandLine command,
            String every,
            boolean repeats,
            String repeatOption,
            Duration usual,
            Duration shortest) {
        if (every != null && !repeats) {
            throw new CommandLine.ParameterException(
                    command,
                    "--every: only with " + repeatOption + "; accepted: " + repeatOption + " --every " + every);
        }
        Duration interval = every == null ? usual : DurationArgument.parse(command, "--every", every);
        if (interval.compareTo(shortest) < 0 || interval.compareTo(Duration.ofHours(1)) > 0) {
            throw new CommandLine.ParameterException(
                    command, "--every: '" + every + "' is out of range; accepted: " + shortest.toSeconds() + "s to 1h");
        }
        return interval;
    }

    /**
     * Waits {@code interval} on the CLI's sleeper; false when the wait was interrupted (Ctrl-C, or a test
     * ending the loop), which ends the command with its work done, the interrupt kept for the caller.
     */
    static boolean waited(Sleeper sleeper, Duration interval) {
        try {
            sleeper.sleep(interval);
            return true;
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
