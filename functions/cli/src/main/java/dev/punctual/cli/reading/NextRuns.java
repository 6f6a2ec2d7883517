package dev.punctual.cli.reading;

import dev.punctual.cli.output.RelativeTime;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A schedule's next runs after a moment, the way {@code jobs} and {@code status} print them: local time
 * in the schedule's zone, UTC, and how far away ({@code in 2h 10m}). Fewer than asked when the schedule
 * ends (a one-time {@code at(...)} already past).
 */
final class NextRuns {

    private NextRuns() {}

    /** Up to {@code count} runs strictly after {@code now}, each as {@code local}, {@code utc}, {@code in}. */
    static List<Map<String, String>> after(Schedule schedule, Instant now, int count) {
        return after(OccurrenceCalculator.of(schedule), now, count);
    }

    /** The same for a job's occurrences: its schedule's minus its calendar and blackouts (decision 0034). */
    static List<Map<String, String>> after(OccurrenceCalculator calculator, Instant now, int count) {
        Schedule schedule = calculator.schedule();
        List<Map<String, String>> runs = new ArrayList<>();
        Instant after = now;
        for (int i = 0; i < count; i++) {
            Optional<Instant> next = calculator.next(after);
            if (next.isEmpty()) {
                break;
            }
            Map<String, String> run = new LinkedHashMap<>();
            run.put(
                    "local",
                    DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(next.get().atZone(schedule.zone())));
            run.put("utc", next.get().toString());
            run.put("in", RelativeTime.from(now, next.get()));
            runs.add(run);
            after = next.get();
        }
        return runs;
    }
}
