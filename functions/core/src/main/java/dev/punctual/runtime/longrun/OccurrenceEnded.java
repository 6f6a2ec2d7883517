package dev.punctual.runtime.longrun;

import dev.punctual.PunctualException;

/**
 * Thrown by a step that must not go on and must not be retried (decision 0039, 3): the occurrence was
 * recorded as failed (a chunk failed its last attempt), or its claim is no longer the lease's holder (a
 * moved fence: nothing was recorded). The execution fails; its status event finds the occurrence no longer
 * RUNNING under the claim and records nothing more.
 */
public final class OccurrenceEnded extends PunctualException {
    private static final long serialVersionUID = 1L;

    public OccurrenceEnded(String message) {
        super(message);
    }
}
