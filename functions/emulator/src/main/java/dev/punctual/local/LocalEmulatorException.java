package dev.punctual.local;

import dev.punctual.PunctualException;

/** The local emulator could not be installed or started; the message says what to install or set. */
public final class LocalEmulatorException extends PunctualException {
    private static final long serialVersionUID = 1L;

    public LocalEmulatorException(String message) {
        super(message);
    }

    public LocalEmulatorException(String message, Throwable cause) {
        super(message, cause);
    }
}
