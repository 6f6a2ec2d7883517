package dev.punctual.runtime;

import dev.punctual.job.MaintenanceCondition;
import java.util.List;
import java.util.Optional;

/**
 * The catalog's maintenance conditions, evaluated before an occurrence's claim (decision 0036, 5). The
 * first condition that holds, or that cannot be evaluated, decides: the occurrence is skipped before any
 * work, and no later condition is asked. A catalog without conditions asks nothing (no request).
 */
final class MaintenanceConditions {

    /** What the conditions say of running an occurrence now. */
    sealed interface Verdict {
        /** No condition holds: run. */
        record Clear() implements Verdict {}

        /** The condition finds data: skip as MAINTENANCE. */
        record Holds(MaintenanceCondition condition) implements Verdict {}

        /** The condition could not be evaluated: skip as MAINTENANCE_UNKNOWN, never run blind. */
        record Unknown(MaintenanceCondition condition, String why) implements Verdict {}
    }

    private static final Verdict CLEAR = new Verdict.Clear();

    private final List<MaintenanceCondition> conditions;
    private final ConditionProbe probe;

    MaintenanceConditions(List<MaintenanceCondition> conditions, ConditionProbe probe) {
        this.conditions = List.copyOf(conditions);
        this.probe = probe;
    }

    Verdict evaluate() {
        for (MaintenanceCondition condition : conditions) {
            Optional<Verdict> decided = evaluate(condition);
            if (decided.isPresent()) {
                return decided.get();
            }
        }
        return CLEAR;
    }

    /** Every condition, each evaluated (none skipped after one holds): what a ping reports. */
    List<ConditionState> each() {
        return conditions.stream()
                .map(condition -> switch (evaluate(condition).orElse(CLEAR)) {
                    case Verdict.Clear clear ->
                        new ConditionState(condition.name(), ConditionState.State.CLEAR, Optional.empty());
                    case Verdict.Holds holds ->
                        new ConditionState(condition.name(), ConditionState.State.HOLDS, Optional.empty());
                    case Verdict.Unknown unknown ->
                        new ConditionState(condition.name(), ConditionState.State.UNKNOWN, Optional.of(unknown.why()));
                })
                .toList();
    }

    private Optional<Verdict> evaluate(MaintenanceCondition condition) {
        try {
            return probe.findsAnItem(condition) ? Optional.of(new Verdict.Holds(condition)) : Optional.empty();
        } catch (RuntimeException cannotTell) {
            // Access denied, a timeout, a missing index: the data that would hold the stage may be there.
            String why =
                    cannotTell.getMessage() == null ? cannotTell.getClass().getSimpleName() : cannotTell.getMessage();
            return Optional.of(new Verdict.Unknown(condition, why));
        }
    }
}
