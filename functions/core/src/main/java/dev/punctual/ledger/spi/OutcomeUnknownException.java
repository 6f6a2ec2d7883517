package dev.punctual.ledger.spi;

import dev.punctual.PunctualException;

/**
 * A store request failed in a way that does not say whether it was applied (timeout, lost connection,
 * throttling, server error). The ledger reads back before deciding.
 */
public class OutcomeUnknownException extends PunctualException {
    private static final long serialVersionUID = 1L;

    public OutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
