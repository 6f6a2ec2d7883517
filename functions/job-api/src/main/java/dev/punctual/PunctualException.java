package dev.punctual;

/**
 * The root of Punctual's faults: something went wrong that the caller did not expect and cannot
 * treat as an ordinary outcome. Expected outcomes (a lease held by someone else, an occurrence
 * already done) are values, never exceptions.
 */
public class PunctualException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PunctualException(String message) {
        super(message);
    }

    public PunctualException(String message, Throwable cause) {
        super(message, cause);
    }
}
