package dev.punctual.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.punctual.catchup.MissedRange;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.SkippedLocalTime;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The demo's words for people new to Punctual: what happens in the window, said when it happens. */
final class Narration {

    /** A sentence to print once the simulated clock reaches {@code at}. */
    record Line(Instant at, String text) {}

    private static final DateTimeFormatter LOCAL_TIME = DateTimeFormatter.ofPattern("HH:mm");
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("HH:mm'Z'");
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    private static final ObjectMapper SORTED =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private Narration() {}

    /** Every line of the window, in time order: the clock changes of the jobs' zones, the outage, maintenance. */
    static List<Line> of(JobCatalog catalog) {
        List<Line> lines = new ArrayList<>();
        Set<ZoneId> zones = new LinkedHashSet<>();
        catalog.jobs().forEach(j -> zones.add(j.schedule().zone()));
        for (ZoneId zone : zones) {
            ZoneOffsetTransition t = zone.getRules().nextTransition(DemoScenario.START);
            if (t != null && t.getInstant().isBefore(DemoScenario.END)) {
                lines.add(new Line(t.getInstant(), clockChange(zone, t, catalog)));
            }
        }
        lines.add(new Line(
                DemoScenario.OUTAGE_FROM,
                "outage from " + UTC_TIME.format(DemoScenario.OUTAGE_FROM.atZone(ZoneId.of("UTC"))) + " to "
                        + UTC_TIME.format(DemoScenario.OUTAGE_TO.atZone(ZoneId.of("UTC")))
                        + ": the scheduler's deliveries to expire-reservations and refund-keys are lost (say, a"
                        + " broken deploy); nothing runs them. The hourly missed-run-watchdog reports an"
                        + " occurrence still undelivered " + MissedRunWatchdog.GRACE.toHours()
                        + "h after it fell due"));
        lines.add(new Line(
                DemoScenario.OUTAGE_TO,
                "outage over: each job's next delivery catches up the newest occurrences it may and records"
                        + " the older ones as missed, in one range"));
        lines.add(new Line(
                DemoScenario.MAINTENANCE_FROM.minusSeconds(31),
                "a data tool loads synthetic members under punctual maintenance hold: every job skips while it"
                        + " runs, and then while the data it loaded is there (the examples' maintenance condition"
                        + " synthetic-members), until the data set is reset"));
        lines.add(new Line(
                DemoScenario.DUPLICATED.plusSeconds(39),
                "the same delivery arrives again (Lambda may deliver an event twice): it is skipped as already"
                        + " done, the report is not sent twice"));
        if (catalog.find("send-reminders").flatMap(JobDefinition::deadline).isPresent()) {
            lines.add(new Line(
                    DemoScenario.LATE_REMINDER
                            .plus(DemoScenario.REMINDER_LATENESS)
                            .minusSeconds(1),
                    "send-reminders' 18:00 Seoul delivery arrives "
                            + DemoScenario.REMINDER_LATENESS.toMinutes() + " minutes late (a throttled scheduler):"
                            + " past its start deadline of "
                            + catalog.find("send-reminders")
                                    .orElseThrow()
                                    .startDeadline()
                                    .toMinutes()
                            + " minutes it is recorded as SKIP DEADLINE_PASSED and counted as missed, never sent"
                            + " late"));
        }
        lines.addAll(exclusions(catalog));
        lines.sort(Comparator.comparing(Line::at));
        return lines;
    }

    /**
     * One line per excluded span a job's schedule meets in the window (a holiday, a blackout night), said
     * just before its first excluded occurrence, with the span's reason (decision 0034).
     */
    private static List<Line> exclusions(JobCatalog catalog) {
        List<Line> lines = new ArrayList<>();
        Set<String> said = new LinkedHashSet<>();
        for (JobDefinition job : catalog.jobs()) {
            if (job.isPerEntity() || job.exclusions().isEmpty()) {
                continue;
            }
            for (Instant occurrence :
                    OccurrenceCalculator.of(job.schedule()).between(DemoScenario.START, DemoScenario.END, 1000)) {
                job.exclusions().covering(occurrence).ifPresent(span -> {
                    String key = job.lockGroup() + span.from() + span.why();
                    if (said.add(key)) {
                        lines.add(new Line(
                                occurrence.minusSeconds(1),
                                job.id() + (job.lockGroup().equals(job.id()) ? "" : " (group " + job.lockGroup() + ")")
                                        + ": " + span.why() + ", so its occurrences until "
                                        + LOCAL.format(span.until()
                                                .atZone(job.schedule().zone()))
                                        + " are skipped (SKIP " + span.kind() + "), not counted as missed"));
                    }
                });
            }
        }
        return lines;
    }

    /**
     * "clocks go forward in New York at 02:00 local: daily-report keeps its local time, 1h earlier in
     * UTC", and for each job whose local time the change skips, that it does not run that day.
     */
    static String clockChange(ZoneId zone, ZoneOffsetTransition t, JobCatalog catalog) {
        String city = zone.getId().substring(zone.getId().lastIndexOf('/') + 1).replace('_', ' ');
        String direction = t.isGap() ? "forward" : "back";
        List<JobDefinition> inZone = catalog.jobs().stream()
                .filter(j -> j.schedule().zone().equals(zone))
                .toList();
        List<String> jobs = inZone.stream().map(JobDefinition::id).toList();
        long hours = Math.abs(t.getDuration().toHours());
        StringBuilder text = new StringBuilder("clocks go " + direction + " in " + city + " at "
                + LOCAL_TIME.format(t.getDateTimeBefore()) + " local: " + String.join(", ", jobs)
                + (jobs.size() == 1 ? " keeps its" : " keep their") + " local time, " + hours + "h "
                + (t.isGap() ? "earlier" : "later") + " in UTC");
        // Said only of a job the change really skips: the scheduler delivers nothing for it that night.
        for (JobDefinition job : inZone) {
            OccurrenceCalculator.of(job.schedule()).timeline(DemoScenario.START, DemoScenario.END, 1000).stream()
                    .filter(e -> e instanceof SkippedLocalTime s && s.gap().equals(t))
                    .map(SkippedLocalTime.class::cast)
                    .forEach(s -> text.append("; ")
                            .append(job.id())
                            .append("'s ")
                            .append(s.localTime())
                            .append(" does not exist (clocks jump from ")
                            .append(LOCAL_TIME.format(t.getDateTimeBefore()))
                            .append(" to ")
                            .append(LOCAL_TIME.format(t.getDateTimeAfter()))
                            .append("), so it does not run that day"));
        }
        return text.toString();
    }

    /** "catch-up: 2 run, 11 recorded as missed (09:00 .. 11:30 local)": the missed range in the job's zone. */
    static String catchUp(long ran, MissedRange missed, ZoneId zone) {
        return "catch-up: " + ran + " run, " + missed.count() + " recorded as missed (" + missedRange(missed, zone)
                + ")";
    }

    static String missedRange(MissedRange missed, ZoneId zone) {
        ZonedDateTime first = missed.first().atZone(zone);
        ZonedDateTime last = missed.last().atZone(zone);
        return LOCAL.format(first) + " .. " + LOCAL.format(last);
    }

    /** A job's JSON summary with its keys in order, so the demo prints the same text on every run. */
    static String stableJson(String json) {
        try {
            JsonNode node = SORTED.readTree(json);
            Object tree = SORTED.treeToValue(node, Object.class);
            return SORTED.writeValueAsString(tree);
        } catch (IOException | IllegalArgumentException e) {
            return json;
        }
    }
}
