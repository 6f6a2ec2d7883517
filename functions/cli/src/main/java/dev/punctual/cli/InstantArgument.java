package dev.punctual.cli;

import dev.punctual.time.OccurrenceCalculator;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;

/** Reads an instant option: ISO-8601 in UTC ({@code ...Z}) or with an explicit offset, never a bare local time. */
final class InstantArgument {
    private InstantArgument() {}

    static Instant parse(CommandLine command, String option, String text) {
        Instant instant = read(command, option, text);
        if (!OccurrenceCalculator.covers(instant)) {
            throw new CommandLine.ParameterException(
                    command,
                    option + ": '" + text + "' is outside the years EventBridge schedules; accepted: "
                            + OccurrenceCalculator.YEARS);
        }
        return instant;
    }

    private static Instant read(CommandLine command, String option, String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException notUtc) {
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e) {
                throw new CommandLine.ParameterException(
                        command,
                        option + ": '" + text + "' is not an instant; accepted: ISO-8601 with Z or an offset,"
                                + " e.g. 2027-03-29T00:30:00Z or 2027-03-29T02:30:00+02:00");
            }
        }
    }
}
