package dev.punctual.cli;

import dev.punctual.observability.Redactor;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the CLI says back about input it refused, or about a command that failed, on stderr and in the
 * JSON {@code error} object: one line, redacted by the logs' redactor (a {@code --password=...}, a token
 * typed where a job id goes, the password in an {@code --endpoint} URL), with each value it echoes and
 * the whole line bounded, so a 100 KB argument is not printed back whole. Every refusal and failure
 * line is made here, whichever command or picocli check wrote the message.
 */
final class RefusalLine {

    /** The most of one echoed value that is shown: enough to recognise it. */
    static final int VALUE_MAX = 200;

    /** The most of the line that is shown: it still fits a terminal's scrollback and a log field. */
    static final int LINE_MAX = 2000;

    /**
     * Wide enough that the message is redacted whole before anything is cut: a secret cut in half would
     * no longer have its shape.
     */
    private static final Redactor REDACTOR = new Redactor(1_000_000);

    /** A quoted value ({@code '...'}, as the CLI's messages echo input) or a run without spaces, too long. */
    private static final Pattern LONG_VALUE =
            Pattern.compile("'([^'\\n]{" + (VALUE_MAX + 1) + ",}+)'|[^\\s']{" + (VALUE_MAX + 1) + ",}+");

    private RefusalLine() {}

    static String of(String message) {
        if (message == null) {
            return "invalid input";
        }
        String joined = message.strip().replaceFirst("^Error: ", "").replaceAll("\\s*\\R\\s*", " ");
        String line = LONG_VALUE
                .matcher(REDACTOR.line(joined))
                .replaceAll(m -> Matcher.quoteReplacement(
                        m.group(1) != null
                                ? "'" + cut(m.group(1), VALUE_MAX) + "'"
                                : cutKeepingPunctuation(m.group())));
        return line.length() <= LINE_MAX ? line : cut(line, LINE_MAX);
    }

    /** {@code --vvv...: not an option}: the colon after an unquoted value is the message's, not the value's. */
    private static String cutKeepingPunctuation(String run) {
        int end = run.length();
        while (end > VALUE_MAX && ":;,".indexOf(run.charAt(end - 1)) >= 0) {
            end--;
        }
        return end > VALUE_MAX ? cut(run.substring(0, end), VALUE_MAX) + run.substring(end) : run;
    }

    /** The first {@code max} characters (not splitting a surrogate pair) and how many more there were. */
    private static String cut(String text, int max) {
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "… (" + (text.length() - end) + " more characters)";
    }
}
