package dev.punctual.runtime;

import dev.punctual.ledger.Due;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.RecurrenceExpression;
import dev.punctual.time.Schedule;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The checks of a parsed payload that need the schedule: a manual run names a real occurrence of the
 * job (or gets the latest one due), so its run item has the same key a scheduled run of that occurrence
 * would have; a scheduled delivery names one, or becomes a {@link Invocation.NotAnOccurrence} to record.
 */
final class InvocationResolver {

    /**
     * The latest a scheduler's delivery can arrive after its scheduled time: EventBridge Scheduler's
     * maximum event age (24 h at most) plus Lambda's async maximum event age (6 h at most). The stage's
     * settings (infra's RetrySettings) are at or below these limits, and the function does not know
     * them, so the limits are the bound: a real late delivery is never refused.
     */
    static final Duration LATE_DELIVERY_LIMIT = Duration.ofHours(24 + 6);

    private final Clock clock;

    InvocationResolver(Clock clock) {
        this.clock = clock;
    }

    /** The invocation with everything resolved, or the reason it cannot run. */
    PayloadParser.Parsed resolve(Invocation invocation) {
        return switch (invocation) {
            case Invocation.Scheduled scheduled -> scheduledTimeChecked(scheduled);
            case Invocation.ManualRun run -> manualTimeChecked(run);
            case Invocation.Replay replay
            when !Due.hasCome(replay.to().minusMillis(1), clock.instant()) ->
                notDue("to", replay.to(), false, "only occurrences already due can be replayed");
            default -> new PayloadParser.Parsed.Valid(invocation);
        };
    }

    private PayloadParser.Parsed manualTimeChecked(Invocation.ManualRun run) {
        RunSubject job = run.subject();
        OccurrenceCalculator calculator = OccurrenceCalculator.of(job.schedule());
        if (run.at().isEmpty()) {
            // "The latest" is the job's latest: not a holiday or a blackout's (decision 0034); naming one
            // with --at runs it on purpose.
            return job.occurrences()
                    .previous(clock.instant().plusMillis(1))
                    .<PayloadParser.Parsed>map(at -> new PayloadParser.Parsed.Valid(run.at(at)))
                    .orElseGet(() -> invalid(
                            "at", "no occurrence of " + job.described() + " has come due yet; name one with \"at\""));
        }
        Instant at = run.at().get();
        // A dry run claims and writes nothing, so it may name an occurrence still ahead: what an approver
        // looks at before approving it (decision 0041), counted from the data as it stands now.
        if (!run.dryRun() && !Due.hasCome(at, clock.instant())) {
            return notDue("at", at, false, "a manual run takes an occurrence already due, or none for the latest");
        }
        return canonical(job, calculator, at)
                .<PayloadParser.Parsed>map(occurrence -> new PayloadParser.Parsed.Valid(run.at(occurrence)))
                .orElseGet(() -> invalid("at", notAnOccurrence(job, calculator, at)));
    }

    /**
     * A scheduled delivery must name an occurrence of the job's schedule, or a hand-edited payload
     * could create run items (and move the cursor) at arbitrary instants; and it must be due, or it
     * would take effect early. A rate() is deployed as the UTC cron with the same occurrences
     * (Schedule.deployment), so its deliveries are occurrences too.
     *
     * <p>Any other past time may still be a real delivery: the replaced expression's occurrence (or its
     * retry) arriving after a deploy changed the schedule. That one is recorded, not refused, so it is
     * never silently dropped; only what cannot be such a delivery is refused with nothing written. The
     * one exception: a time the deployed containing cron of an RRULE fires at is answered
     * {@code OUTSIDE_RULE} with a log line and no record (decision 0049), even when it was a replaced
     * rule's late delivery (a rule whose DTSTART moved by a week fires on the same weekday), because
     * the two cannot be told apart and a record for every other-week firing is the cost 0049 avoids.
     */
    private PayloadParser.Parsed scheduledTimeChecked(Invocation.Scheduled s) {
        RunSubject job = s.subject();
        OccurrenceCalculator calculator = OccurrenceCalculator.of(job.schedule());
        Instant at = s.scheduledTime();
        if (!Due.isDue(at, clock.instant())) {
            return notDue(
                    ScheduledPayload.SCHEDULED_TIME,
                    at,
                    true,
                    "the scheduler delivers an occurrence at or after its time");
        }
        Optional<Instant> occurrence = canonical(job, calculator, at);
        if (occurrence.isPresent()) {
            return new PayloadParser.Parsed.Valid(s.at(occurrence.get()));
        }
        Optional<String> outsideRule = outsideRule(job, calculator, at);
        if (outsideRule.isPresent()) {
            return new PayloadParser.Parsed.Valid(new Invocation.OutsideRule(s, outsideRule.get()));
        }
        String notAnOccurrence = notAnOccurrence(job, calculator, at);
        return whyNotALateDelivery(s)
                .map(why -> invalid(
                        ScheduledPayload.SCHEDULED_TIME, notAnOccurrence + "; " + why + ", so nothing is recorded"))
                .orElseGet(() -> new PayloadParser.Parsed.Valid(new Invocation.NotAnOccurrence(s, notAnOccurrence)));
    }

    /**
     * The occurrence a time names, keyed the one way every path keys it. A local time repeated by a
     * fall-back transition is one occurrence, at its earlier instant (docs/time.md); the scheduler,
     * an operator or a replay may name either instant, and both must find the same run item, or the
     * job would run twice that night.
     */
    private static Optional<Instant> canonical(RunSubject job, OccurrenceCalculator calculator, Instant at) {
        if (calculator.isOccurrence(at)) {
            return Optional.of(at);
        }
        return otherInstantOfARepeatedLocalTime(job, at).filter(calculator::isOccurrence);
    }

    /**
     * For an RRULE job, a time its deployed cron fires at that is not an occurrence of the rule: the
     * explanation, else empty. Such a delivery is expected on every firing the rule leaves out (decision
     * 0049), so it is answered without a ledger request; a time the deployed cron does not fire at either
     * (the replaced expression's, after a deploy) goes the NOT_AN_OCCURRENCE way.
     */
    private static Optional<String> outsideRule(RunSubject job, OccurrenceCalculator calculator, Instant at) {
        Schedule schedule = job.schedule();
        if (!(schedule.expression() instanceof RecurrenceExpression)) {
            return Optional.empty();
        }
        Schedule deployed = schedule.deployed();
        if (canonical(job, OccurrenceCalculator.of(deployed), at).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(at + " is a firing of " + job.described() + "'s deployed cron ("
                + deployed.toEventBridge() + " in " + deployed.zone() + ") that is not an occurrence of its rule"
                + " (" + schedule.expression().source() + "); nearest: " + nearest(calculator, at));
    }

    private PayloadParser.Parsed notDue(String field, Instant time, boolean skewTolerated, String why) {
        Instant now = clock.instant();
        String tolerance =
                skewTolerated ? ", plus a tolerance of " + Due.TOLERANCE.toSeconds() + " s for clock skew" : "";
        return new PayloadParser.Parsed.Invalid(new InvalidPayload(
                "NOT_DUE", field, field + " " + time + " is after now (" + now + tolerance + "); " + why));
    }

    /**
     * Why a scheduled time can be no real delivery of any schedule the job had, or empty when it can be
     * one. This bounds what someone allowed to invoke the function can make it write with made-up
     * times: skips of catalog jobs, on whole minutes within the last {@link #LATE_DELIVERY_LIMIT} (at
     * most 1,800 per job), each naming the job's schedule, one per (job, time),
     * each expiring with the skip retention; never a run, an attempt or a cursor move.
     */
    private Optional<String> whyNotALateDelivery(Invocation.Scheduled s) {
        Instant now = clock.instant();
        if (s.executionId().isBlank() || s.scheduleArn().isBlank()) {
            return Optional.of(
                    "without the scheduler's execution_id and schedule_arn it is not a scheduler's delivery");
        }
        String schedule = s.subject().scheduleName();
        if (!s.scheduleArn().endsWith("/" + schedule)) {
            return Optional.of("its schedule_arn does not name the job's schedule (…/" + schedule + ")");
        }
        if (!s.scheduledTime().equals(s.scheduledTime().truncatedTo(ChronoUnit.MINUTES))) {
            return Optional.of("it is not on a whole minute, as every scheduler's time is");
        }
        if (s.scheduledTime().isBefore(now.minus(LATE_DELIVERY_LIMIT))) {
            return Optional.of("it is older than the " + LATE_DELIVERY_LIMIT.toHours()
                    + " h the scheduler's and Lambda's retries can deliver late");
        }
        return Optional.empty();
    }

    private static Optional<Instant> otherInstantOfARepeatedLocalTime(RunSubject job, Instant at) {
        ZoneId zone = job.schedule().zone();
        LocalDateTime local = LocalDateTime.ofInstant(at, zone);
        return zone.getRules().getValidOffsets(local).stream()
                .map(offset -> local.toInstant(offset))
                .filter(other -> !other.equals(at))
                .findFirst();
    }

    /** The one-line explanation of a refused or skipped time; the runbook tells operators to read it. */
    private static String notAnOccurrence(RunSubject job, OccurrenceCalculator calculator, Instant at) {
        return at + " is not an occurrence of " + job.described() + " ("
                + job.schedule().toEventBridge() + " in " + job.schedule().zone() + "); nearest: "
                + nearest(calculator, at);
    }

    private static String nearest(OccurrenceCalculator calculator, Instant at) {
        List<String> around = new ArrayList<>();
        calculator.previous(at).ifPresent(p -> around.add(p.toString()));
        calculator.next(at).ifPresent(n -> around.add(n.toString()));
        return around.isEmpty() ? "none" : String.join(" and ", around);
    }

    private static PayloadParser.Parsed invalid(String field, String message) {
        return new PayloadParser.Parsed.Invalid(new InvalidPayload("NOT_AN_OCCURRENCE", field, message));
    }
}
