package dev.punctual.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads a duration option: {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}, or ISO-8601 such as {@code PT2H}. */
final class DurationArgument {

    private static final Pattern SHORT = Pattern.compile("(\\d{1,6})([smhd])");

    private DurationArgument() {}

    static Duration parse(CommandLine command, String option, String text) {
        Matcher m = SHORT.matcher(text.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new CommandLine.ParameterException(
                    command,
                    option + ": '" + text + "' is not a duration; accepted: 90s, 30m, 2h, 1d or ISO-8601 like PT2H");
        }
    }
}
