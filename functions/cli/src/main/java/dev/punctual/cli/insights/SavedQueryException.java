package dev.punctual.cli.insights;

import dev.punctual.PunctualException;

/** A Logs Insights query that ended without results: failed, cancelled, or still running after the wait. */
public final class SavedQueryException extends PunctualException {
    private static final long serialVersionUID = 1L;

    public SavedQueryException(String message) {
        super(message);
    }
}
