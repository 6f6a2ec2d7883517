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
        if (!(invocation instanceof Invocation.ManualRun run)) {
            return new PayloadParser.Parsed.Valid(invocation);
        }
        JobDefinition job = catalog.require(run.jobId());
        OccurrenceCalculator calculator = OccurrenceCalculator.of(job.schedule());
        if (run.at().isPresent()) {
            Instant at = run.at().get();
            if (calculator.isOccurrence(at)) {
                return new PayloadParser.Parsed.Valid(run);
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
