package dev.punctual.runtime;

import dev.punctual.ledger.Summaries;
import dev.punctual.longrun.LongExecutions;

/** How a closed execution's status reads in a long occurrence's record (decision 0039, 5). */
final class LongFold {

    private LongFold() {}

    /** {@code execution NAME TIMED_OUT: States.Timeout (...)}: one sanitised line. */
    static String describe(LongExecutions.Execution execution) {
        StringBuilder why = new StringBuilder("execution ")
                .append(execution.name())
                .append(' ')
                .append(execution.status().name());
        execution.error().ifPresent(e -> why.append(": ").append(e));
        execution.cause().ifPresent(c -> why.append(" (").append(c).append(')'));
        return Summaries.sanitise(why.toString());
    }

    /** The same line from a status-change event's fields. */
    static String describe(String name, String status, String error, String cause) {
        StringBuilder why =
                new StringBuilder("execution ").append(name).append(' ').append(status);
        if (error != null && !error.isBlank()) {
            why.append(": ").append(error);
        }
        if (cause != null && !cause.isBlank()) {
            why.append(" (").append(cause).append(')');
        }
        return Summaries.sanitise(why.toString());
    }
}
