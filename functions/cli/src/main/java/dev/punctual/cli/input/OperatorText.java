package dev.punctual.cli.input;

import dev.punctual.ledger.Summaries;
import dev.punctual.observability.VisibleText;

/**
 * The free text an operator types that other operators read back: a maintenance hold's reason and who
 * set it, shown in {@code status}, in the refusals that name a hold and in every run the hold skips.
 * Text with a character that is not seen but acts (a newline, a tab, an ANSI escape, a bidi override, a
 * zero-width space) could break a table row or forge a log line there, so it is refused here with exit
 * 2, before anything connects; so is text too long to read in a row. The bounds keep the lock item far
 * below DynamoDB's 400 KB item limit, even at four bytes a character.
 */
public final class OperatorText {

    /** Enough for a sentence and a ticket number; a run item's skip detail keeps up to 500. */
    static final int REASON_MAX = 200;

    /** A user name or a team's name. */
    static final int BY_MAX = 64;

    private OperatorText() {}

    public static String reason(String text) {
        return checked("--reason", text, REASON_MAX);
    }

    /**
     * Who, as it is stored and shown: redacted as a hold's reason is ({@link Summaries#operatorText}), so
     * a secret typed as {@code --by} reaches no line, JSON or item. A name the redactor changes is refused
     * rather than stored masked: who set a hold is how the ledger tells one operator's hold from
     * another's, and every {@code --by} that masks alike ({@code [email]} for any e-mail address) would be
     * one operator, free to replace or lift the others' holds. The refusal shows it redacted.
     */
    public static String by(String text) {
        String shown = Summaries.operatorText(checked("--by", text, BY_MAX));
        if (!shown.equals(text)) {
            throw new OperatorInputException("--by: '" + shown + "' reads as a secret or personal data, which is"
                    + " stored masked and would not tell you from anyone else whose --by masks alike; accepted: a user"
                    + " or team name, e.g. --by alice (default: $USER)");
        }
        return shown;
    }

    private static String checked(String option, String text, int max) {
        String accepted = "; accepted: at most " + max + " characters on one line, without control characters"
                + " (newline, tab, ESC), bidi overrides or zero-width characters";
        if (VisibleText.hasHidden(text)) {
            throw new OperatorInputException(option + ": '" + OperatorNames.shown(text)
                    + "' holds a hidden character (shown as \\uXXXX)" + accepted);
        }
        int length = text.codePointCount(0, text.length());
        if (length > max) {
            throw new OperatorInputException(option + ": '" + text + "' is " + length + " characters long" + accepted);
        }
        if (text.isBlank()) {
            throw new OperatorInputException(option + ": '" + text + "' is blank" + accepted);
        }
        return text;
    }
}
