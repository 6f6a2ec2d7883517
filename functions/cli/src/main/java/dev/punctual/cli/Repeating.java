package dev.punctual.cli;

import dev.punctual.ledger.Sleeper;
import java.time.Duration;

/** The wait between two rounds of a command that repeats until Ctrl-C ({@code status --watch}, {@code logs --follow}). */
final class Repeating {

    private Repeating() {}

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
