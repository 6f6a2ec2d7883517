package dev.punctual.demo;

import dev.punctual.json.Json;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.runtime.OccurrenceReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one run of the missed-run watchdog reported. Its result holds only a count ({@code "overdue":2});
 * the occurrences it found are named by its WARN lines ("occurrence overdue", with {@code job} and
 * {@code expected}), the same lines that carry the {@code Overdue} metric.
 *
 * @param count the result's count of overdue occurrences
 * @param occurrences "job expected" for each WARN line of the run
 */
record WatchdogFinding(long count, List<String> occurrences) {

    /** The watchdog's finding in this run, if it found anything; {@code logged} is what the run logged. */
    static Optional<WatchdogFinding> of(OccurrenceReport report, List<String> logged) {
        if (!report.job().equals(MissedRunWatchdog.ID)
                || !(report.result().get("overdue") instanceof Number overdue)
                || overdue.longValue() == 0) {
            return Optional.empty();
        }
        List<String> named = new ArrayList<>();
        for (String line : logged) {
            overdueLine(line).ifPresent(named::add);
        }
        return Optional.of(new WatchdogFinding(overdue.longValue(), named));
    }

    private static Optional<String> overdueLine(String line) {
        try {
            if (Json.read(line) instanceof Map<?, ?> m
                    && MissedRunWatchdog.OVERDUE_MESSAGE.equals(m.get("message"))
                    && m.get("job") instanceof String job
                    && m.get("expected") instanceof String expected) {
                return Optional.of(job + " " + expected);
            }
        } catch (Json.NotJsonException e) {
            // Not a structured line: not one of the watchdog's.
        }
        return Optional.empty();
    }

    /** "finds 2 occurrences overdue (not delivered): expire-reservations 2027-03-14T00:00:00Z, ...". */
    String text() {
        return "finds " + count + (count == 1 ? " occurrence" : " occurrences") + " overdue (not delivered): "
                + (occurrences.isEmpty() ? "(no WARN line names them)" : String.join(", ", occurrences))
                + "; each is an Overdue metric and a lifecycle event on the stage's bus, which the alert rule sends to"
                + " its topic";
    }
}
