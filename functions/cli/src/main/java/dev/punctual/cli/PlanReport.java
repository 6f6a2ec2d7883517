package dev.punctual.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.catchup.StartDeadline;
import dev.punctual.time.Occurrence;
import dev.punctual.time.Schedule;
import dev.punctual.time.ScheduleExpressionException;
import dev.punctual.time.SkippedLocalTime;
import dev.punctual.time.TimelineEntry;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Renders a plan as text for people or as one JSON object for tools.
 *
 * @param startDeadline a catalog job's start deadline (decision 0032): each occurrence is listed with its
 *     latest start, after which it is skipped (DEADLINE_PASSED), not run; empty for none
 */
record PlanReport(Schedule schedule, Instant from, List<TimelineEntry> entries, Optional<Duration> startDeadline) {

    PlanReport(Schedule schedule, Instant from, List<TimelineEntry> entries) {
        this(schedule, from, entries, Optional.empty());
    }

    /** The note of an occurrence: the calculator's, then, with a deadline, what happens if it starts later. */
    private Optional<String> note(Occurrence occurrence) {
        Optional<String> late = startDeadline.map(d -> "latest start "
                + new StartDeadline(d).latestStart(occurrence.instant()) + ", later: SKIP DEADLINE_PASSED");
        if (occurrence.note().isPresent() && late.isPresent()) {
            return Optional.of(occurrence.note().get() + "; " + late.get());
        }
        return occurrence.note().or(() -> late);
    }

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
        startDeadline.ifPresent(d -> root.put("start_deadline", d.toString()));
        ArrayNode occurrences = root.putArray("occurrences");
        ArrayNode skipped = root.putArray("skipped");
        for (TimelineEntry entry : entries) {
            switch (entry) {
                case Occurrence occurrence -> {
                    ObjectNode node = occurrences
                            .addObject()
                            .put("utc", occurrence.instant().toString())
                            .put("local", local(occurrence));
                    startDeadline.ifPresent(d -> node.put(
                            "latest_start",
                            new StartDeadline(d)
                                    .latestStart(occurrence.instant())
                                    .toString()));
                    addNote(occurrence, node);
                }
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
                .append('\n');
        startDeadline.ifPresent(d -> text.append("deadline    ")
                .append(d)
                .append(" after each occurrence; a later start is skipped (DEADLINE_PASSED), never run")
                .append('\n'));
        text.append(row("UTC", "LOCAL", "NOTE"));
        for (TimelineEntry entry : entries) {
            String utc = entry instanceof Occurrence occurrence
                    ? occurrence.instant().toString()
                    : "-";
            String local = switch (entry) {
                case Occurrence occurrence -> local(occurrence);
                case SkippedLocalTime gap -> gap.localTime() + " (none)";
            };
            Optional<String> note = entry instanceof Occurrence occurrence ? note(occurrence) : entry.note();
            text.append(row(utc, local, note.orElse("")));
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
