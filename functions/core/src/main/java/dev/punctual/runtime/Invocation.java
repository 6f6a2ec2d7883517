package dev.punctual.runtime;

import dev.punctual.job.JobDefinition;
import java.time.Instant;
import java.util.Optional;

/**
 * A validated request to the handler. Each kind is documented in events/README.md. A kind about a job
 * carries its {@link RunSubject}: the catalog's definition, looked up once when the payload was read (a
 * payload naming no job of the catalog never becomes an invocation), and for a per-entity job the entity
 * with its own schedule, checked then too.
 */
public sealed interface Invocation {

    /** The job the invocation is about, or empty for a keep-warm ping. */
    Optional<JobDefinition> definition();

    /**
     * From EventBridge Scheduler. The scheduled time is the occurrence's identity; the execution id is
     * new on every delivery attempt and is only logged.
     */
    record Scheduled(
            RunSubject subject, Instant scheduledTime, String executionId, int attemptNumber, String scheduleArn)
            implements Invocation {
        @Override
        public Optional<JobDefinition> definition() {
            return Optional.of(job());
        }

        public JobDefinition job() {
            return subject.job();
        }

        public String jobId() {
            return subject.job().id();
        }

        Scheduled at(Instant occurrence) {
            return new Scheduled(subject, occurrence, executionId, attemptNumber, scheduleArn);
        }
    }

    /**
     * A scheduler's delivery of a time that is not an occurrence of the job's current schedule, and may
     * still be a real late delivery (see {@code InvocationResolver}): typically the replaced
     * expression's occurrence, or its retry, arriving after a deploy changed the schedule. It is
     * recorded as a SKIP on that time's run item and never run.
     *
     * @param detail why it is not an occurrence: the current expression and zone, the nearest occurrences
     */
    record NotAnOccurrence(Scheduled delivery, String detail) implements Invocation {
        @Override
        public Optional<JobDefinition> definition() {
            return delivery.definition();
        }
    }

    /**
     * A scheduler's delivery, at an occurrence of the cron deployed for an RRULE job (the narrowest cron
     * containing the rule), of a time that is not an occurrence of the rule itself: another week of an
     * INTERVAL=2, another position of a BYSETPOS, a time after the rule ended. Expected on every such
     * firing, so it is answered with a log line and no ledger request (decision 0049).
     *
     * @param detail why: the rule, its deployed cron and zone, the nearest occurrences of the rule
     */
    record OutsideRule(Scheduled delivery, String detail) implements Invocation {
        @Override
        public Optional<JobDefinition> definition() {
            return delivery.definition();
        }
    }

    /**
     * An operator runs one job by hand: the occurrence {@code at}, or the latest one due now. It honours
     * the lock and the ledger; {@code force} re-runs an occurrence that already succeeded. A dry run
     * claims, writes and sends nothing: it reports what the job would do ({@code Job.preview}).
     */
    record ManualRun(RunSubject subject, Optional<Instant> at, boolean force, boolean dryRun) implements Invocation {
        @Override
        public Optional<JobDefinition> definition() {
            return Optional.of(job());
        }

        public JobDefinition job() {
            return subject.job();
        }

        public String jobId() {
            return subject.job().id();
        }

        ManualRun at(Instant occurrence) {
            return new ManualRun(subject, Optional.of(occurrence), force, dryRun);
        }
    }

    /**
     * Runs the occurrences in {@code [from, to)}, oldest first, at most {@code max}. Occurrences already
     * done are skipped, so a replay can be repeated. A dry run only lists what would run, each with the
     * job's preview of what it would do. Occurrences past the job's start deadline are recorded as
     * DEADLINE_PASSED skips unless {@code force} waives the deadline (decision 0032); force never re-runs
     * a done one.
     */
    record Replay(RunSubject subject, Instant from, Instant to, int max, boolean dryRun, boolean force)
            implements Invocation {
        /** A replay that keeps the start deadline. */
        Replay(RunSubject subject, Instant from, Instant to, int max, boolean dryRun) {
            this(subject, from, to, max, dryRun, false);
        }

        @Override
        public Optional<JobDefinition> definition() {
            return Optional.of(job());
        }

        public JobDefinition job() {
            return subject.job();
        }

        public String jobId() {
            return subject.job().id();
        }
    }

    /**
     * Keeps a function's SnapStart version active: a version not invoked for 14 days is deactivated and
     * its next invokes fail, which a monthly job would otherwise hit. Touches nothing.
     */
    record Ping() implements Invocation {
        @Override
        public Optional<JobDefinition> definition() {
            return Optional.empty();
        }
    }
}
