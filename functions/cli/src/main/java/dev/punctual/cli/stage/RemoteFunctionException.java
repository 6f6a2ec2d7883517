package dev.punctual.cli.stage;

import dev.punctual.PunctualException;

/** The stage's function threw instead of answering with a result; exits 1 with this message. */
public final class RemoteFunctionException extends PunctualException {
    private static final long serialVersionUID = 1L;

    public RemoteFunctionException(String message) {
        super(message);
    }
}
