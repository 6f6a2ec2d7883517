package dev.punctual.cli.reading;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.catchup.StartDeadline;
import dev.punctual.cli.output.Json;
import dev.punctual.job.JobSpread;
import dev.punctual.time.ExcludedSpan;
import dev.punctual.time.Exclusions;
import dev.punctual.time.Occurrence;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.RecurrenceExpression;
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
 * @param job a catalog job's catch-up policy and exclusions (decision 0034): each occurrence is listed
 *     with whether it runs and, if not, why, by the same rule the runtime applies; empty for an expression
 */
record PlanReport(
        Schedule schedule,
        Instant from,
        List<TimelineEntry> entries,
        Optional<Duration> startDeadline,
        Optional<JobRules> job) {

    /** What decides, beyond the schedule, whether a catalog job's occurrence runs. */
    record JobRules(
            Exclusions exclusions,
            CatchUpPolicy catchUp,
            Optional<JobSpread> spread,
            Optional<dev.punctual.job.LongRun> longRun) {

        JobRules(Exclusions exclusions, CatchUpPolicy catchUp) {
            this(exclusions, catchUp, Optional.empty());
        }

        JobRules(Exclusions exclusions, CatchUpPolicy catchUp, Optional<JobSpread> spread) {
            this(exclusions, catchUp, spread, Optional.empty());
        }

        /** How far after each occurrence its schedule is deployed to fire (decision 0035). */
        int offsetMinutes() {
            return spread.map(JobSpread::offsetMinutes).orElse(0);
        }

        /** Why the occurrence does not run, as the runtime records it, or empty when it runs. */
        Optional<Verdict> skip(Instant occurrence) {
            Optional<ExcludedSpan> span = exclusions.covering(occurrence);
            if (span.isPresent()) {
                String reason = span.get().kind() == ExcludedSpan.Kind.CALENDAR ? "CALENDAR" : "BLACKOUT";
                return Optional.of(new Verdict(reason, span.get().why()));
            }
            return exclusions.calendarBeyondRange(occurrence).map(why -> new Verdict("CALENDAR_ENDED", why));
        }

        /** What happens after an excluded occurrence, as one sentence. */
        String afterwards() {
            return "an excluded occurrence is skipped, not missed, and never caught up; occurrences missed"
                    + " outside one are caught up by the job's policy (" + catchUp.describe() + ")";
        }
    }

    /** A skip the runtime would record: its reason and why. */
    record Verdict(String reason, String why) {}

    PlanReport(Schedule schedule, Instant from, List<TimelineEntry> entries) {
        this(schedule, from, entries, Optional.empty(), Optional.empty());
    }

    private Optional<Verdict> skip(Occurrence occurrence) {
        return job.flatMap(rules -> rules.skip(occurrence.instant()));
    }

    private String runs(Occurrence occurrence) {
        return skip(occurrence).map(v -> "SKIP " + v.reason()).orElse("runs");
    }

    /**
     * The note of an occurrence: why it is skipped; else the calculator's, then, with a deadline, what
     * happens if it starts later.
     */
    private Optional<String> note(Occurrence occurrence) {
        Optional<Verdict> skip = skip(occurrence);
        if (skip.isPresent()) {
            return Optional.of(skip.get().why());
        }
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
        job.ifPresent(rules -> {
            ArrayNode exclusions = root.putArray("exclusions");
            rules.exclusions().describe().forEach(exclusions::add);
            root.put("catch_up", rules.catchUp().describe());
            root.put("after_exclusion", rules.afterwards());
            rules.spread()
                    .ifPresent(spread -> root.put(
                                    "spread_over", spread.window().window().toString())
                            .put("offset_minutes", spread.offsetMinutes()));
            // A long job's limits (decision 0039), the same object as jobs'; null for a job that is not long.
            rules.longRun()
                    .ifPresentOrElse(
                            limits -> root.putObject("long")
                                    .put("max_duration", limits.maxDuration().toString())
                                    .put("chunks_at_once", limits.chunksAtOnce()),
                            () -> root.putNull("long"));
        });
        if (schedule.expression() instanceof RecurrenceExpression) {
            // Decision 0049: an RRULE is deployed as its containing cron; its other firings write nothing.
            root.put("no_more_occurrences", endedWith().isPresent());
        }
        ArrayNode occurrences = root.putArray("occurrences");
        ArrayNode skipped = root.putArray("skipped");
        for (TimelineEntry entry : entries) {
            switch (entry) {
                case Occurrence occurrence -> {
                    ObjectNode node = occurrences
                            .addObject()
                            .put("utc", occurrence.instant().toString())
                            .put("local", local(occurrence));
                    job.ifPresent(rules -> {
                        Optional<Verdict> skip = skip(occurrence);
                        node.put("runs", skip.isEmpty());
                        skip.ifPresent(v -> node.put("skip_reason", v.reason()).put("skip_why", v.why()));
                    });
                    startDeadline.ifPresent(d -> node.put(
                            "latest_start",
                            new StartDeadline(d)
                                    .latestStart(occurrence.instant())
                                    .toString()));
                    if (offsetMinutes() != 0) {
                        node.put(
                                "fires",
                                occurrence
                                        .instant()
                                        .plusSeconds(60L * offsetMinutes())
                                        .toString());
                    }
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
            return schedule.deployment(offsetMinutes()).expression();
        } catch (ScheduleExpressionException e) {
            return "not deployable: " + e.getMessage();
        }
    }

    private String deployedZone() {
        try {
            return schedule.deployment(offsetMinutes()).zone().getId();
        } catch (ScheduleExpressionException e) {
            return schedule.zone().getId();
        }
    }

    /**
     * For an RRULE that a COUNT or UNTIL ends and whose last occurrence the plan has reached (or passed):
     * that last occurrence, or {@link Instant#MIN} when the rule has none after the plan's start. Empty for
     * every other schedule and while occurrences remain after the listed ones.
     */
    private Optional<Instant> endedWith() {
        if (!(schedule.expression() instanceof RecurrenceExpression rule) || !rule.ends()) {
            return Optional.empty();
        }
        Instant after = from.minusSeconds(1);
        for (TimelineEntry entry : entries) {
            if (entry instanceof Occurrence occurrence) {
                after = occurrence.instant();
            }
        }
        OccurrenceCalculator calculator = OccurrenceCalculator.of(schedule);
        if (calculator.next(after).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(calculator.previous(after.plusSeconds(1)).orElse(Instant.MIN));
    }

    private static String noMore(Instant last) {
        return "no more occurrences: the rule's COUNT or UNTIL has ended it"
                + (last.equals(Instant.MIN) ? "" : " (the last was " + last + ")");
    }

    private int offsetMinutes() {
        return job.map(JobRules::offsetMinutes).orElse(0);
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
        if (schedule.expression() instanceof RecurrenceExpression) {
            text.append("deployed    as the narrowest cron containing the rule; its firings that are not occurrences")
                    .append(" below are answered OUTSIDE_RULE, with no ledger write (decision 0049)")
                    .append('\n');
        }
        startDeadline.ifPresent(d -> text.append("deadline    ")
                .append(d)
                .append(" after each occurrence; a later start is skipped (DEADLINE_PASSED), never run")
                .append('\n'));
        job.ifPresent(rules -> {
            for (String exclusion : rules.exclusions().describe()) {
                text.append("excludes    ").append(exclusion).append('\n');
            }
            if (!rules.exclusions().isEmpty()) {
                text.append("after       ").append(rules.afterwards()).append('\n');
            }
            rules.spread()
                    .ifPresent(spread -> text.append("spread      ")
                            .append(spread.describe())
                            .append(": fires ")
                            .append(spread.offsetMinutes())
                            .append(" min after each occurrence listed, which is what runs")
                            .append('\n'));
            rules.longRun()
                    .ifPresent(limits -> text.append("long        ")
                            .append(limits.describe().substring("long: ".length()))
                            .append(": each occurrence is one Step Functions execution of plan, chunks and finish")
                            .append('\n'));
        });
        text.append(row("UTC", "LOCAL", job.isPresent() ? "RUNS" : null, "NOTE"));
        for (TimelineEntry entry : entries) {
            String utc = entry instanceof Occurrence occurrence
                    ? occurrence.instant().toString()
                    : "-";
            String local = switch (entry) {
                case Occurrence occurrence -> local(occurrence);
                case SkippedLocalTime gap -> gap.localTime() + " (none)";
            };
            Optional<String> note = entry instanceof Occurrence occurrence ? note(occurrence) : entry.note();
            String runs = job.isEmpty() ? null : entry instanceof Occurrence o ? runs(o) : "-";
            text.append(row(utc, local, runs, note.orElse("")));
        }
        endedWith().ifPresent(last -> text.append(noMore(last)).append('\n'));
        return text.toString();
    }

    /** One row; a plan of a catalog job has a RUNS column (its verdict), a plan of an expression not. */
    private static String row(String utc, String local, String runs, String note) {
        String line = runs == null
                ? String.format("%-22s %-27s %s", utc, local, note)
                : String.format("%-22s %-27s %-20s %s", utc, local, runs, note);
        return line.stripTrailing() + "\n";
    }

    private static String local(Occurrence occurrence) {
        return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(occurrence.local());
    }
}
