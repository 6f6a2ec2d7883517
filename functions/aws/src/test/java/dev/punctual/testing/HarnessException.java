package dev.punctual.testing;

/** The test harness could not provide a DynamoDB backend; the message says what to install or set. */
public final class HarnessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public HarnessException(String message) {
        super(message);
    }

    public HarnessException(String message, Throwable cause) {
        super(message, cause);
    }
}
