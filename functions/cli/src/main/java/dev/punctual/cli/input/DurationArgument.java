package dev.punctual.cli.input;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads a duration option: {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}, compounds of those from the
 * largest unit down as {@code kubectl} and Go write them ({@code 1h30m}, {@code 1d12h}, {@code 2m30s}),
 * or ISO-8601 such as {@code PT2H}.
 */
public final class DurationArgument {

    /** Each unit at most once, largest first; at most 6 digits each, so no part can overflow. */
    private static final Pattern SHORT =
            Pattern.compile("(?:(\\d{1,6})d)?(?:(\\d{1,6})h)?(?:(\\d{1,6})m)?(?:(\\d{1,6})s)?");

    static final String ACCEPTED = "90s, 30m, 2h, 1d, compounds such as 1h30m or 1d12h, or ISO-8601 like PT2H";

    private DurationArgument() {}

    public static Duration parse(CommandLine command, String option, String text) {
        String given = text.trim();
        Matcher m = SHORT.matcher(given);
        if (!given.isEmpty() && m.matches()) {
            return Duration.ofDays(part(m, 1))
                    .plusHours(part(m, 2))
                    .plusMinutes(part(m, 3))
                    .plusSeconds(part(m, 4));
        }
        // Bounded before the parse, so a hostile value of 100 KB costs nothing.
        if (given.length() <= 40) {
            try {
                return Duration.parse(given);
            } catch (DateTimeParseException e) {
                // refused below, with what is accepted
            }
        }
        throw new CommandLine.ParameterException(
                command, option + ": '" + text + "' is not a duration; accepted: " + ACCEPTED);
    }

    private static long part(Matcher m, int group) {
        return m.group(group) == null ? 0 : Long.parseLong(m.group(group));
    }
}
