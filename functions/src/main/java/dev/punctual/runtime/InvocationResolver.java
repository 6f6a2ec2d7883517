package dev.punctual.runtime;

import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The checks of a parsed payload that need the schedule: a manual run names a real occurrence of the
 * job (or gets the latest one due), so its run item has the same key a scheduled run of that occurrence
 * would have.
 */
final class InvocationResolver {

    private final JobCatalog catalog;
    private final Clock clock;

    InvocationResolver(JobCatalog catalog, Clock clock) {
        this.catalog = catalog;
        this.clock = clock;
    }

    /** The invocation with everything resolved, or the reason it cannot run. */
    PayloadParser.Parsed resolve(Invocation invocation) {
        if (invocation instanceof Invocation.Replay replay
                && replay.to().isAfter(clock.instant().plusMillis(1))) {
            return new PayloadParser.Parsed.Invalid(new InvalidPayload(
                    "NOT_DUE",
                    "to",
                    "to (" + replay.to() + ") is after now (" + clock.instant()
                            + "); only occurrences already due can be replayed"));
        }
        if (invocation instanceof Invocation.Scheduled scheduled) {
            return scheduledTimeChecked(scheduled);
        }
        if (!(invocation instanceof Invocation.ManualRun run)) {
            return new PayloadParser.Parsed.Valid(invocation);
        }
        JobDefinition job = catalog.require(run.jobId());
        OccurrenceCalculator calculator = OccurrenceCalculator.of(job.schedule());
        if (run.at().isPresent()) {
            Instant at = run.at().get();
            if (calculator.isOccurrence(at) && !at.isAfter(clock.instant())) {
                return new PayloadParser.Parsed.Valid(run);
            }
            if (calculator.isOccurrence(at) && at.isAfter(clock.instant())) {
                return new PayloadParser.Parsed.Invalid(new InvalidPayload(
                        "NOT_DUE",
                        "at",
                        at + " is after now (" + clock.instant()
                                + "); a manual run takes an occurrence already due, or none for the latest"));
            }

            return invalid(
                    "at",
                    at + " is not an occurrence of " + job.id() + " ("
                            + job.schedule().toEventBridge() + " in "
                            + job.schedule().zone() + "); nearest: " + nearest(calculator, at));
        }
        Optional<Instant> due = calculator.previous(clock.instant().plusMillis(1));
        return due.<PayloadParser.Parsed>map(at -> new PayloadParser.Parsed.Valid(
                        new Invocation.ManualRun(run.jobId(), Optional.of(at), run.force())))
                .orElseGet(() ->
                        invalid("at", "no occurrence of " + job.id() + " has come due yet; name one with \"at\""));
    }

    /**
     * A scheduled delivery must name an occurrence of the job's schedule, or a hand-edited payload
     * could create run items (and move the cursor) at arbitrary instants. Two exceptions keep real
     * deliveries from being refused: rate() schedules, whose phase EventBridge takes from the
     * schedule's start, and a local time repeated by a fall-back transition, where the scheduler may
     * name either instant (docs/time.md).
     */
    private PayloadParser.Parsed scheduledTimeChecked(Invocation.Scheduled s) {
        JobDefinition job = catalog.require(s.jobId());
        OccurrenceCalculator calculator = OccurrenceCalculator.of(job.schedule());
        Instant at = s.scheduledTime();
        if (job.schedule().expression() instanceof dev.punctual.time.RateExpression
                || calculator.isOccurrence(at)
                || otherInstantOfARepeatedLocalTime(job, at)
                        .filter(calculator::isOccurrence)
                        .isPresent()) {
            return new PayloadParser.Parsed.Valid(s);
        }
        return invalid(
                "scheduledTime",
                at + " is not an occurrence of " + job.id() + " ("
                        + job.schedule().toEventBridge() + " in "
                        + job.schedule().zone() + "); nearest: "
                        + nearest(calculator, at));
    }

    private static Optional<Instant> otherInstantOfARepeatedLocalTime(JobDefinition job, Instant at) {
        java.time.ZoneId zone = job.schedule().zone();
        java.time.LocalDateTime local = java.time.LocalDateTime.ofInstant(at, zone);
        return zone.getRules().getValidOffsets(local).stream()
                .map(offset -> local.toInstant(offset))
                .filter(other -> !other.equals(at))
                .findFirst();
    }

    private static String nearest(OccurrenceCalculator calculator, Instant at) {
        List<String> around = new java.util.ArrayList<>();
        calculator.previous(at).ifPresent(p -> around.add(p.toString()));
        calculator.next(at).ifPresent(n -> around.add(n.toString()));
        return around.isEmpty() ? "none" : String.join(" and ", around);
    }

    private static PayloadParser.Parsed invalid(String field, String message) {
        return new PayloadParser.Parsed.Invalid(new InvalidPayload("NOT_AN_OCCURRENCE", field, message));
    }
}
