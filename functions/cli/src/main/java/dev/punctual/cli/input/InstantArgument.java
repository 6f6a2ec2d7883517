package dev.punctual.cli.input;

import dev.punctual.time.InstantText;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Instant;
import picocli.CommandLine;

/** Reads an instant option: ISO-8601 with {@code Z} or an explicit offset, never a bare local time. */
public final class InstantArgument {
    private InstantArgument() {}

    public static Instant parse(CommandLine command, String option, String text) {
        Instant instant = read(command, option, text);
        if (!OccurrenceCalculator.covers(instant)) {
            throw new CommandLine.ParameterException(
                    command,
                    option + ": '" + text + "' is outside the years EventBridge schedules; accepted: "
                            + OccurrenceCalculator.YEARS);
        }
        return instant;
    }

    /** The same reading as a payload's times (InstantText), so the CLI and the function refuse the same texts. */
    private static Instant read(CommandLine command, String option, String text) {
        return InstantText.parse(text)
                .orElseThrow(() -> new CommandLine.ParameterException(
                        command,
                        option + ": '" + text + "' "
                                + InstantText.problem(text).orElse("is not an instant") + "; accepted: "
                                + InstantText.ACCEPTED));
    }
}
