package dev.punctual.runtime.longrun;

import dev.punctual.PunctualException;

/**
 * A step's claim that cannot be read: a fault (the state machine and the function disagree, or the catalog
 * no longer has the job), not a chunk's failure, and not retried as one.
 */
public final class BadLongClaim extends PunctualException {
    private static final long serialVersionUID = 1L;

    public BadLongClaim(String message) {
        super(message);
    }
}
