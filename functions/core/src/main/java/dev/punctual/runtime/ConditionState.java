package dev.punctual.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * One maintenance condition as it was evaluated (decision 0036, 5): what a ping reports, so {@code verify}
 * learns whether the deployed function, with its own role, can evaluate it.
 *
 * @param why when {@link State#UNKNOWN}: what kept it from being evaluated
 */
public record ConditionState(String condition, State state, Optional<String> why) {

    /** What the runtime does with it: HOLDS skips as MAINTENANCE, UNKNOWN as MAINTENANCE_UNKNOWN. */
    public enum State {
        HOLDS,
        CLEAR,
        UNKNOWN
    }

    public ConditionState {
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(why, "why");
    }
}
