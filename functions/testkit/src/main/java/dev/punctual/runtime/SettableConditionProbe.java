package dev.punctual.runtime;

import dev.punctual.PunctualException;
import dev.punctual.job.MaintenanceCondition;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Maintenance conditions answered by the test (decision 0036, 5): each finds data, finds none (the
 * default), or cannot be evaluated, as the test sets it between deliveries. It counts what it was asked,
 * so a test can show a condition is evaluated once per occurrence run, and never for a catalog without one.
 */
public final class SettableConditionProbe implements ConditionProbe {

    private sealed interface Answer {
        record Finds(boolean item) implements Answer {}

        record Fails(String why) implements Answer {}
    }

    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final AtomicInteger asked = new AtomicInteger();

    /** The condition finds data from now on: jobs skip as MAINTENANCE. */
    public void findsData(String condition) {
        answers.put(condition, new Answer.Finds(true));
    }

    /** The condition finds nothing from now on (the data set was reset): jobs run. */
    public void findsNothing(String condition) {
        answers.put(condition, new Answer.Finds(false));
    }

    /** The condition cannot be evaluated from now on ({@code why}: access denied, a timeout). */
    public void fails(String condition, String why) {
        answers.put(condition, new Answer.Fails(why));
    }

    /** How many evaluations were asked for. */
    public int asked() {
        return asked.get();
    }

    @Override
    public boolean findsAnItem(MaintenanceCondition condition) {
        asked.incrementAndGet();
        return switch (answers.getOrDefault(condition.name(), new Answer.Finds(false))) {
            case Answer.Finds finds -> finds.item();
            case Answer.Fails fails -> throw new PunctualException(fails.why());
        };
    }
}
