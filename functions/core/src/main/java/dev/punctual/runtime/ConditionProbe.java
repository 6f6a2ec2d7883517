package dev.punctual.runtime;

import dev.punctual.job.MaintenanceCondition;

/**
 * The port a maintenance condition is evaluated through (decision 0036, 5): the DynamoDB adapter runs the
 * condition's one bounded query; the test kit answers from what a test set. The runtime decides what an
 * answer means ({@link MaintenanceConditions}).
 */
public interface ConditionProbe {

    /**
     * Whether the condition's query finds an item now.
     *
     * @throws dev.punctual.PunctualException when it cannot tell (a timeout, access denied, a table or
     *     index that is not there): the runtime then skips, as {@code MAINTENANCE_UNKNOWN}
     */
    boolean findsAnItem(MaintenanceCondition condition);

    /** For a runtime wired without a probe: a catalog that declares a condition is never run blind. */
    ConditionProbe UNAVAILABLE = condition -> {
        throw new dev.punctual.PunctualException(
                "no probe is wired for maintenance conditions (condition " + condition.name() + ")");
    };
}
