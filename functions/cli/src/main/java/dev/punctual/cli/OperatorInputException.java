package dev.punctual.cli;

import dev.punctual.PunctualException;

/** An operator command cannot start with what it was given; exits 2 with this message. */
public final class OperatorInputException extends PunctualException {
    private static final long serialVersionUID = 1L;

    public OperatorInputException(String message) {
        super(message);
    }
}
