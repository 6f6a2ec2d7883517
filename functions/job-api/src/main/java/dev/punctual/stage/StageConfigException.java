package dev.punctual.stage;

import dev.punctual.RefusedInputException;

/** A stage setting has a value Punctual cannot accept; the message names the field and what is accepted. */
public final class StageConfigException extends RefusedInputException {
    private static final long serialVersionUID = 1L;

    private final String field;

    public StageConfigException(String field, String given, String accepted) {
        super(field + ": '" + given + "' is not accepted; expected " + accepted);
        this.field = field;
    }

    public StageConfigException(String message) {
        super(message);
        this.field = null;
    }

    /** The offending field, or null when the problem is not tied to one. */
    public String field() {
        return field;
    }
}
