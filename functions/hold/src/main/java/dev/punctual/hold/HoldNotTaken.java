package dev.punctual.hold;

import dev.punctual.PunctualException;

/** A hold a tool asked for with {@link HoldOutcome#orThrow()} was not taken; nothing is held. */
public final class HoldNotTaken extends PunctualException {
    private static final long serialVersionUID = 1L;

    HoldNotTaken(String message) {
        super(message);
    }
}
