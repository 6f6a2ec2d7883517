package dev.punctual.runtime;

import dev.punctual.observability.Redactor;

/**
 * A payload the handler refuses before touching the ledger. Returned, logged and reported, never
 * thrown: a retry would fail the same way.
 *
 * @param code machine-readable: NOT_JSON, NOT_AN_OBJECT, UNKNOWN_KIND, MISSING_FIELD, WRONG_TYPE,
 *     BAD_TIME, UNKNOWN_JOB, NOT_AN_OCCURRENCE, BAD_RANGE
 * @param field the offending field, or null
 * @param message one line saying what was wrong and what is accepted
 */
public record InvalidPayload(String code, String field, String message) {

    /** Long enough for any real message; a 300 KB job id is not echoed whole. */
    static final int MAX_MESSAGE = 500;

    private static final Redactor ECHO = new Redactor(MAX_MESSAGE);

    /** Cut after redacting, so a secret cut in half is still recognised by its shape. */
    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }

    /**
     * The message echoes input, and it leaves the process in the log line, the result and the CLI's
     * error: redacted, bounded and one line here, once, for all of them.
     */
    public InvalidPayload {
        message = ECHO.line(message);
        field = field == null ? null : cut(ECHO.line(field), 80);
    }
}
