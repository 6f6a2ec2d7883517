package dev.punctual.runtime;

import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import java.util.Optional;

/**
 * What recording one dead-lettered delivery led to (decision 0044). Only {@link Unreadable} leaves the
 * message for a person; the others are done with it.
 */
public sealed interface Undelivered {

    /** The occurrence's run item now says it was not delivered. */
    record Recorded(RunKey key, RunRecord record) implements Undelivered {}

    /** It already said so: the same message (or another give-up of the same occurrence) came before. */
    record AlreadyRecorded(RunKey key) implements Undelivered {}

    /**
     * The occurrence has a more telling record (a run, a failure, a success, an operator's skip), which is
     * kept: the delivery was given up after it ran, or a later delivery ran it.
     */
    record Kept(RunKey key, Optional<RunRecord> existing) implements Undelivered {}

    /**
     * A firing of an RRULE job's deployed cron that the rule does not have (decision 0049): had it been
     * delivered it would have been answered {@code OUTSIDE_RULE} without a write, so nothing is owed to it
     * and nothing is written. Done with, never kept for a person (no one could run it: it is no occurrence).
     */
    record OutsideRule(String jobId, String why) implements Undelivered {}

    /**
     * Not a scheduler's delivery of an occurrence of a catalog job: not JSON, another kind (a ping, a
     * status change), an unknown job, a time that is no occurrence. Nothing is written.
     *
     * @param code the refusal's code, as a refused payload's ({@code NOT_JSON}, {@code UNKNOWN_JOB}, ...)
     */
    record Unreadable(String code, String why) implements Undelivered {}
}
