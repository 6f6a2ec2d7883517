package dev.punctual.cli.output;

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
public final class RefusalLine {

    /** The most of one echoed value that is shown: enough to recognise it. */
    public static final int VALUE_MAX = 200;

    /** The most of the line that is shown: it still fits a terminal's scrollback and a log field. */
    public static final int LINE_MAX = 2000;

    /**
     * Wide enough that the message is redacted whole before anything is cut: a secret cut in half would
     * no longer have its shape.
     */
    private static final Redactor REDACTOR = new Redactor(1_000_000);

    /**
     * A value the messages echo, quoted ({@code '...'}): a quote opens where no letter or digit stands
     * before it and closes where none follows, so an apostrophe inside a word ({@code the job's cursor},
     * {@code don't}) neither opens nor closes one and advice between two values is never taken for one.
     * A try reads to the next quote that is not such an apostrophe, so the scan stays linear.
     * Or a run without spaces longer than a value is shown: an unquoted value ({@code --vvv...: not an
     * option}), cut only before the advice.
     */
    private static final Pattern VALUE = Pattern.compile(
            "(?<![\\p{L}\\p{N}'])'((?:[^'\\n]|(?<=[\\p{L}\\p{N}])'(?=[\\p{L}\\p{N}]))*+)'(?![\\p{L}\\p{N}])"
                    + "|[^\\s']{"
                    + (VALUE_MAX + 1) + ",}+");

    /** Where the advice starts: what would be accepted, written by the CLI, never cut. */
    private static final String ADVICE = "; accepted: ";

    /** When the values at {@link #VALUE_MAX} still make the line too long: each is cut to this. */
    private static final int VALUE_MIN = 40;

    private RefusalLine() {}

    /**
     * The message as one line, redacted; each echoed value cut to {@link #VALUE_MAX} characters (to
     * {@link #VALUE_MIN} when the line is still longer than {@link #LINE_MAX}), and the problem and the
     * advice never cut, unless a message that echoes nothing recognisable is itself too long.
     */
    public static String of(String message) {
        if (message == null) {
            return "invalid input";
        }
        String joined = message.strip().replaceFirst("^Error: ", "").replaceAll("\\s*\\R\\s*", " ");
        String redacted = REDACTOR.line(joined);
        String line = valuesCut(redacted, VALUE_MAX);
        if (line.length() > LINE_MAX) {
            line = valuesCut(redacted, VALUE_MIN);
        }
        return line.length() <= LINE_MAX ? line : cut(line, LINE_MAX);
    }

    /** Each echoed value longer than {@code max} cut; the text around the values kept whole. */
    private static String valuesCut(String line, int max) {
        int advice = adviceStart(line);
        return VALUE.matcher(line).replaceAll(m -> {
            if (m.group(1) != null) {
                return Matcher.quoteReplacement(
                        m.group(1).length() > max ? "'" + cut(m.group(1), max) + "'" : m.group());
            }
            boolean inAdvice = advice >= 0 && m.start() >= advice;
            return Matcher.quoteReplacement(inAdvice ? m.group() : cutKeepingPunctuation(m.group(), max));
        });
    }

    /** The first {@code ; accepted: } outside a quoted value, or -1: one pass over the values. */
    private static int adviceStart(String line) {
        Matcher value = VALUE.matcher(line);
        int at = line.indexOf(ADVICE);
        while (at >= 0 && value.find() && value.start() < at) {
            if (value.group(1) != null && value.end() > at) {
                at = line.indexOf(ADVICE, value.end());
            }
        }
        return at;
    }

    /** {@code --vvv...: not an option}: the colon after an unquoted value is the message's, not the value's. */
    private static String cutKeepingPunctuation(String run, int max) {
        int end = run.length();
        while (end > max && ":;,".indexOf(run.charAt(end - 1)) >= 0) {
            end--;
        }
        return end > max ? cut(run.substring(0, end), max) + run.substring(end) : run;
    }

    /** The first {@code max} characters (not splitting a surrogate pair) and how many more there were. */
    private static String cut(String text, int max) {
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "… (" + (text.length() - end) + " more characters)";
    }
}
