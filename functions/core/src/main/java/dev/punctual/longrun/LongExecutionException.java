package dev.punctual.longrun;

import dev.punctual.PunctualException;

/** The execution engine could not be reached, or refused for a reason other than an existing name. */
public class LongExecutionException extends PunctualException {
    private static final long serialVersionUID = 1L;

    public LongExecutionException(String message, Throwable cause) {
        super(message, cause);
    }

    public LongExecutionException(String message) {
        super(message);
    }
}
