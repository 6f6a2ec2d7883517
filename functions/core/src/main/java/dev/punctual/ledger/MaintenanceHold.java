package dev.punctual.ledger;

import dev.punctual.observability.VisibleText;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * Why maintenance holds a group, who set it and when it lapses on its own. The reason and who set it
 * are read back by every operator ({@code status}, the refusals that name a hold) and recorded in every
 * run it skips, so they are redacted the way a job's text is ({@link Summaries#operatorText}), whoever
 * built the hold: a reason or a {@code --by} typed with a password in it is stored masked, and one
 * stored unmasked (by an older CLI, or by hand) is read back masked.
 *
 * <p>A hold taken for as long as a command runs ({@code maintenance hold}, decision 0036) names the
 * command, redacted and bounded the same way: a command line is where a password is most often typed.
 * Its {@code until} is then the end of its current renewal, never days away.
 */
public record MaintenanceHold(String reason, String setBy, Instant until, Optional<String> command) {

    /** The longest command line kept: enough to tell one tool run from another, not a whole script. */
    public static final int COMMAND_MAX = 300;

    public MaintenanceHold {
        reason = Summaries.operatorText(Objects.requireNonNull(reason, "reason"));
        setBy = Summaries.operatorText(Objects.requireNonNull(setBy, "setBy"));
        until = Objects.requireNonNull(until, "until").truncatedTo(ChronoUnit.MILLIS);
        command = Objects.requireNonNull(command, "command")
                .filter(c -> !c.isBlank())
                .map(c -> bounded(Summaries.operatorText(c)));
    }

    /** A hold an operator switched on ({@code maintenance on}): no command. */
    public MaintenanceHold(String reason, String setBy, Instant until) {
        this(reason, setBy, until, Optional.empty());
    }

    /** The same hold, held for as long as this command runs. */
    public MaintenanceHold runningCommand(String commandLine) {
        return new MaintenanceHold(reason, setBy, until, Optional.of(commandLine));
    }

    /** The same hold with another end: what a renewal stores. */
    public MaintenanceHold until(Instant end) {
        return new MaintenanceHold(reason, setBy, end, command);
    }

    /** The reason for a line people read: a hold stored by hand may hold a newline or an ANSI escape. */
    public String shownReason() {
        return VisibleText.escaped(reason);
    }

    /** Who set it, for a line people read. */
    public String shownSetBy() {
        return VisibleText.escaped(setBy);
    }

    /** The command, for a line people read. */
    public Optional<String> shownCommand() {
        return command.map(VisibleText::escaped);
    }

    /** {@code set by WHO: REASON, until T} (with {@code , running CMD} for a command's hold), on one line. */
    public String shown() {
        return "set by " + shownSetBy() + ": " + shownReason()
                + shownCommand().map(c -> ", running " + c).orElse("") + ", until " + until;
    }

    private static String bounded(String text) {
        if (text.length() <= COMMAND_MAX) {
            return text;
        }
        int cut = COMMAND_MAX - 1;
        // Never half a surrogate pair: the stored text stays valid UTF-16 for DynamoDB's UTF-8.
        return text.substring(0, Character.isHighSurrogate(text.charAt(cut - 1)) ? cut - 1 : cut) + "…";
    }
}
