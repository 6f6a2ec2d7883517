package dev.punctual.runtime.longrun;

import dev.punctual.PunctualException;

/**
 * Thrown by a chunk step whose attempt failed and was recorded, with attempts left: the state machine's
 * retrier matches this class's name (decision 0039, 4) and runs the chunk again after its back-off.
 */
public final class ChunkAttemptFailed extends PunctualException {
    private static final long serialVersionUID = 1L;

    public ChunkAttemptFailed(String message) {
        super(message);
    }
}
