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

    /**
     * Each condition, evaluated as the runtime evaluates it before a claim (a fault is UNKNOWN, never
     * CLEAR): what a ping reports and {@code status} shows.
     */
    public static java.util.List<ConditionState> evaluate(
            java.util.List<dev.punctual.job.MaintenanceCondition> conditions, ConditionProbe probe) {
        return new MaintenanceConditions(conditions, probe).each();
    }

    public ConditionState {
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(why, "why");
    }
}
