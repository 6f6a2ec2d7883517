package dev.punctual.ledger;

import dev.punctual.observability.Redactor;

/**
 * Keeps stored summaries short, on one line and free of secrets: run items are read by many people.
 * The masking is the logs' {@link Redactor}, so a value hidden from a log line is hidden here too.
 */
public final class Summaries {

    /** DynamoDB items are billed per KB; summaries are a hint, not a log. */
    public static final int MAX = 500;

    private static final Redactor REDACTOR = Redactor.standard();

    private Summaries() {}

    /** The error's type and message, secrets masked, cut to {@link #MAX}. */
    public static String ofError(Throwable error) {
        String message = error.getMessage() == null ? "" : ": " + error.getMessage();
        return sanitise(error.getClass().getSimpleName() + message);
    }

    /**
     * An operator's own words as they are stored and shown to other operators: a maintenance hold's
     * reason, and who set a hold or a skip ({@code --by}). Masked by the same redactor as every summary,
     * so a secret or personal data typed there is never stored nor printed; otherwise kept as typed (the
     * CLI has bounded it to one line). The same text always gives the same result, and a redacted text
     * stays as it is, so who set a hold is still recognised when they lift it. Null stays null.
     */
    public static String operatorText(String text) {
        return text == null ? null : REDACTOR.text(text);
    }

    public static String sanitise(String text) {
        if (text == null) {
            return null;
        }
        String oneLine = REDACTOR.text(text).replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MAX ? oneLine : oneLine.substring(0, MAX - 1) + "…";
    }
}
