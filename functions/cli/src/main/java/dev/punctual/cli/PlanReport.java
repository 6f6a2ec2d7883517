package dev.punctual.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.time.Occurrence;
import dev.punctual.time.Schedule;
import dev.punctual.time.ScheduleExpressionException;
import dev.punctual.time.SkippedLocalTime;
import dev.punctual.time.TimelineEntry;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.stream.Stream;

/** Renders a plan as text for people or as one JSON object for tools. */
record PlanReport(Schedule schedule, Instant from, List<TimelineEntry> entries) {

    static Stream<Occurrence> occurrences(List<TimelineEntry> entries) {
        return entries.stream().filter(Occurrence.class::isInstance).map(Occurrence.class::cast);
    }

    String json() {
        ObjectNode root = Json.mapper()
                .createObjectNode()
                // The keys jobs and status use too (README, "Output and exit codes"): snake_case.
                .put("schedule", schedule.expression().source())
                .put("deployed", deployedExpression())
                .put("zone", schedule.zone().getId())
                .put("deployed_zone", deployedZone())
                .put("description", schedule.expression().describe())
                .put("from", from.toString());
        ArrayNode occurrences = root.putArray("occurrences");
        ArrayNode skipped = root.putArray("skipped");
        for (TimelineEntry entry : entries) {
            switch (entry) {
                case Occurrence occurrence ->
                    addNote(
                            occurrence,
                            occurrences
                                    .addObject()
                                    .put("utc", occurrence.instant().toString())
                                    .put("local", local(occurrence)));
                case SkippedLocalTime gap ->
                    addNote(
                            gap,
                            skipped.addObject()
                                    .put("local", gap.localTime().toString())
                                    .put("transition", gap.position().toString()));
            }
        }
        try {
            return Json.mapper().writeValueAsString(root) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings always serialises", e);
        }
    }

    /** What the CDK app deploys, or why it cannot (a rate with no equivalent UTC cron). */
    private String deployedExpression() {
        try {
            return schedule.deployment().expression();
        } catch (ScheduleExpressionException e) {
            return "not deployable: " + e.getMessage();
        }
    }

    private String deployedZone() {
        try {
            return schedule.deployment().zone().getId();
        } catch (ScheduleExpressionException e) {
            return schedule.zone().getId();
        }
    }

    private static void addNote(TimelineEntry entry, ObjectNode node) {
        entry.note().ifPresent(note -> node.put("note", note));
    }

    String text() {
        StringBuilder text = new StringBuilder()
                .append("schedule    ")
                .append(schedule.expression().source())
                .append('\n')
                .append("zone        ")
                .append(schedule.zone().getId())
                .append('\n')
                .append("expression  ")
                .append(deployedExpression())
                .append(deployedZone().equals(schedule.zone().getId()) ? "" : " in " + deployedZone())
                .append('\n')
                .append("meaning     ")
                .append(schedule.expression().describe())
                .append('\n')
                .append(row("UTC", "LOCAL", "NOTE"));
        for (TimelineEntry entry : entries) {
            String utc = entry instanceof Occurrence occurrence
                    ? occurrence.instant().toString()
                    : "-";
            String local = switch (entry) {
                case Occurrence occurrence -> local(occurrence);
                case SkippedLocalTime gap -> gap.localTime() + " (none)";
            };
            text.append(row(utc, local, entry.note().orElse("")));
        }
        return text.toString();
    }

    private static String row(String utc, String local, String note) {
        return String.format("%-22s %-27s %s", utc, local, note).stripTrailing() + "\n";
    }

    private static String local(Occurrence occurrence) {
        return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(occurrence.local());
    }
}
