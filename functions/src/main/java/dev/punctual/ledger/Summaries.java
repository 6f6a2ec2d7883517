package dev.punctual.ledger;

import java.util.regex.Pattern;

/** Keeps stored summaries short and free of secrets: run items are read by many people. */
public final class Summaries {

    /** DynamoDB items are billed per KB; summaries are a hint, not a log. */
    public static final int MAX = 500;

    private static final Pattern SECRET_ASSIGNMENT = Pattern.compile(
            "(?i)(password|passwd|secret|token|api[_-]?key|authorization|credential)s?(\\s*[=:]\\s*|\\s+)\\S+");
    private static final Pattern AWS_ACCESS_KEY = Pattern.compile("\\b(AKIA|ASIA)[A-Z0-9]{16}\\b");
    private static final Pattern BEARER = Pattern.compile("(?i)bearer\\s+\\S+");

    private Summaries() {}

    /** The error's type and message, secrets masked, cut to {@link #MAX}. */
    public static String ofError(Throwable error) {
        String message = error.getMessage() == null ? "" : ": " + error.getMessage();
        return sanitise(error.getClass().getSimpleName() + message);
    }

    public static String sanitise(String text) {
        if (text == null) {
            return null;
        }
        String masked = SECRET_ASSIGNMENT.matcher(text).replaceAll("$1$2***");
        masked = AWS_ACCESS_KEY.matcher(masked).replaceAll("***");
        masked = BEARER.matcher(masked).replaceAll("Bearer ***");
        String oneLine = masked.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MAX ? oneLine : oneLine.substring(0, MAX - 1) + "…";
    }
}
