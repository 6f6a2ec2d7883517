package dev.punctual.cli.input;

import dev.punctual.RefusedInputException;

/** An operator command cannot start with what it was given; exits 2 with this message. */
public final class OperatorInputException extends RefusedInputException {
    private static final long serialVersionUID = 1L;

    public OperatorInputException(String message) {
        super(message);
    }
}
