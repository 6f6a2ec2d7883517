package dev.punctual.outcome;

import dev.punctual.ledger.SkipReason;
import java.util.Optional;

/**
 * Why an occurrence ended as it did: the one vocabulary of outcome lines, handler results, lifecycle
 * events and the runtime's decisions. Each reason carries its verdict and what follows from it, so no
 * caller keys a decision on a string. The wire value ({@link #wire()}, in JSON and log lines, which
 * docs/queries.md, docs/runbook.md and events/ rely on) is the constant's name and never changes.
 */
public enum Reason {
    /** The job ran and its fenced completion committed. */
    OK(Verdict.PASS, null, Flag.NONE),
    /** A duplicate delivery of an occurrence that already succeeded. */
    ALREADY_DONE(Verdict.SKIP, null, Flag.NONE),
    /** Another live invocation is running this very occurrence. */
    IN_PROGRESS_ELSEWHERE(Verdict.SKIP, null, Flag.NONE),
    /** The lock group stayed busy for the stage's lock wait; catch-up takes the occurrence later. */
    LOCK_BUSY(Verdict.SKIP, SkipReason.LOCK_BUSY, Flag.REFUSES_THE_JOB),
    /** Maintenance holds the lock group, or a maintenance condition of the catalog finds data. */
    MAINTENANCE(Verdict.SKIP, SkipReason.MAINTENANCE, Flag.REFUSES_THE_JOB),
    /**
     * A maintenance condition of the catalog could not be evaluated (a timeout, access denied; decision
     * 0036, 5): the data that would hold the stage may be there, so the occurrence is not run; it stays
     * pending for catch-up, as under maintenance, and the reason's metric is alarmed.
     */
    MAINTENANCE_UNKNOWN(Verdict.SKIP, SkipReason.MAINTENANCE_UNKNOWN, Flag.REFUSES_THE_JOB),
    /** A destructive job in a stage that does not allow them. */
    DESTRUCTIVE_DISABLED(Verdict.SKIP, SkipReason.REFUSED, Flag.REFUSES_THE_JOB),
    /** A scheduled delivery arrived while the stage's schedules are switched off. */
    SCHEDULES_DISABLED(Verdict.SKIP, SkipReason.DISABLED, Flag.REFUSES_THE_JOB),
    /**
     * A scheduler's delivery of a time that is not an occurrence of the job's current schedule, usually
     * the replaced expression's delivery arriving after a deploy changed the schedule. Recorded on that
     * time's run item, never run; no attempt, the cursor stays.
     */
    NOT_AN_OCCURRENCE(Verdict.SKIP, SkipReason.REFUSED, Flag.NONE),
    /**
     * A delivery of an RRULE job's deployed cron (the narrowest cron containing the rule, decision 0049) at a
     * time that is not an occurrence of the rule: another week of an INTERVAL, another position of a
     * BYSETPOS, a time after the rule's COUNT or UNTIL ended it. Expected, so answered with one log line and
     * nothing else: no ledger request, no outcome metrics, no attempt, the cursor stays.
     */
    OUTSIDE_RULE(Verdict.SKIP, null, Flag.NONE),
    /**
     * The entity was deleted: a delivery still in flight after its schedule's delete (a scheduler retry,
     * a Lambda retry, a redrive). Recorded, never run; the entity's later occurrences are refused the
     * same way until a put of the entity clears its tombstone.
     */
    ENTITY_DELETED(Verdict.SKIP, SkipReason.ENTITY_DELETED, Flag.REFUSES_THE_JOB),
    /**
     * The occurrence started later than its job's start deadline allows (decision 0032), delivered late
     * or caught up: recorded on its own run item with the latest start and the lateness, counted as
     * missed (the Missed metric), never run; a replay runs it only when forced.
     */
    DEADLINE_PASSED(Verdict.SKIP, SkipReason.DEADLINE_PASSED, Flag.NONE),
    /**
     * An operator skipped the occurrence ahead of time ({@code punctual skip}, decision 0033): never run,
     * whatever the trigger, with who and why; not counted as missed (it was decided, not lost). A later
     * meeting of the same skip (a catch-up, a duplicate delivery) reports it again and records nothing.
     */
    OPERATOR_SKIPPED(Verdict.SKIP, SkipReason.OPERATOR_SKIPPED, Flag.NONE),
    /**
     * An operator paused the job, its lock group or the entity ({@code punctual pause}, decision 0040): the
     * claim was refused in the write it already sends; recorded with who, why, since and until, never run,
     * not counted as missed, not paged. The cursor stays: a resume with catch-up replays it as the job's
     * policy allows, one that skips the paused span keeps it refused. One occurrence, not the whole batch:
     * a catch-up after a resume walks past a span kept refused to the occurrences after it.
     */
    PAUSED(Verdict.SKIP, SkipReason.PAUSED, Flag.NONE),

    /**
     * The job needs an operator's approval of each occurrence ({@code punctual approve JOB --at T}, decision
     * 0041) and this one had none when its claim was written: never run, recorded on its own run item, not
     * counted as missed, alarmed (the stage's Unapproved alarm pages). Approved afterwards, it runs on a
     * manual {@code run --at T} or a later delivery's catch-up within its start deadline.
     */
    UNAPPROVED(Verdict.SKIP, SkipReason.UNAPPROVED, Flag.NONE),
    /**
     * The occurrence falls on a date the job's calendar excludes (a holiday, or a weekend under a
     * business-days rule, in the job's zone; decision 0034): never run, not counted as missed, never due.
     */
    CALENDAR(Verdict.SKIP, SkipReason.CALENDAR, Flag.NONE),
    /**
     * The occurrence falls in a blackout window of the job, its lock group or the stage (decision 0034):
     * never run, not counted as missed, not caught up after the window.
     */
    BLACKOUT(Verdict.SKIP, SkipReason.BLACKOUT, Flag.NONE),
    /**
     * The occurrence's date lies past its calendar's range: nobody has said whether it is a holiday, so it
     * is not run, and it is counted as missed so the out-of-date calendar is alarmed (decision 0034).
     */
    CALENDAR_ENDED(Verdict.SKIP, SkipReason.CALENDAR_ENDED, Flag.NONE),
    /**
     * The scheduler's or Lambda's retries gave the delivery up and it sat in a dead-letter queue; the
     * stage's dead-letter consumer recorded it on its occurrence without running it (decision 0044). A
     * recorded skip, so a replay (or catch-up, while the cursor is behind it) runs it within the job's
     * catch-up policy; never recorded over a run, a success or an operator's skip.
     */
    UNDELIVERED(Verdict.SKIP, SkipReason.UNDELIVERED, Flag.NONE),
    /** A delivered occurrence given back so older ones catch up first; it stays claimable. */
    DEFERRED(Verdict.SKIP, SkipReason.DEFERRED, Flag.NONE),
    /** Not recorded: too little time left in this invocation; the next trigger catches up. */
    DEADLINE(Verdict.SKIP, null, Flag.NONE),
    /** Not recorded: an earlier occurrence of this invocation failed; order is kept for its retry. */
    EARLIER_FAILED(Verdict.SKIP, null, Flag.NONE),
    /** Not recorded: a replay's dry run; nothing was claimed or written. */
    DRY_RUN(Verdict.SKIP, null, Flag.NONE),
    /** The job threw; the error summary is on the run item and the line. */
    JOB_ERROR(Verdict.FAIL, null, Flag.RETRIED),
    /** The lease was no longer ours at completion; whatever the job did is not reported a success. */
    FENCED(Verdict.FAIL, null, Flag.RETRIED),
    /**
     * The claim's lease had less than the minimum working time left when the claim came back, even
     * after a renewal (its write landed late, say after the SDK's retries on a slow network, near the
     * invocation's end), so the job was never started: another runner may already hold the group. A
     * failed attempt, retried like any other.
     */
    LEASE_ENDED(Verdict.FAIL, null, Flag.RETRIED),
    /** The occurrence failed as often as the job allows; only a forced manual run retries it. */
    ATTEMPTS_EXHAUSTED(Verdict.FAIL, null, Flag.NONE),
    /**
     * A long job's occurrence was handed to its Step Functions execution (decision 0039): the claim holds the
     * lock group, the run item stays RUNNING, and the execution records the outcome (OK, CHUNK_FAILED,
     * EXECUTION_FAILED) when it ends.
     */
    STARTED(Verdict.PASS, null, Flag.NONE),
    /**
     * A long occurrence's chunk failed its last attempt (decision 0039): the occurrence is recorded FAILED
     * naming the chunk; a later claim (catch-up, replay) resumes with the chunks not yet recorded.
     */
    CHUNK_FAILED(Verdict.FAIL, null, Flag.NONE),
    /**
     * A long occurrence's execution ended without recording an outcome: it timed out, failed outside a
     * chunk, or was stopped in the console; recorded FAILED from the execution's status (decision 0039).
     */
    EXECUTION_FAILED(Verdict.FAIL, null, Flag.NONE),
    /**
     * An operator cancelled a running long occurrence ({@code punctual cancel}): its execution was stopped
     * and the occurrence recorded FAILED as cancelled, with who and why; not paged, retried only by a replay.
     */
    CANCELLED(Verdict.SKIP, null, Flag.NONE);

    /** What a reason makes the runtime do besides reporting it. */
    private enum Flag {
        NONE,
        /**
         * The failure is retried (Lambda's retry of a scheduled delivery, while attempts are left) and,
         * so occurrences keep their order, stops the later occurrences of the same invocation.
         */
        RETRIED,
        /** Refuses the job as a whole, not one occurrence: stops a catch-up or replay batch there. */
        REFUSES_THE_JOB
    }

    private final Verdict verdict;
    private final SkipReason recordedAs;
    private final Flag flag;

    Reason(Verdict verdict, SkipReason recordedAs, Flag flag) {
        this.verdict = verdict;
        this.recordedAs = recordedAs;
        this.flag = flag;
    }

    public Verdict verdict() {
        return verdict;
    }

    /** The value in JSON results, outcome lines and events. */
    public String wire() {
        return name();
    }

    /**
     * Whether the reason is written to the ledger as a skip of the occurrence, and under which of the
     * ledger's skip categories; empty when it is not.
     */
    public Optional<SkipReason> recordedAs() {
        return Optional.ofNullable(recordedAs);
    }

    /** A scheduled occurrence failing for this reason is retried while it has attempts left. */
    public boolean retried() {
        return flag == Flag.RETRIED;
    }

    /** The later occurrences of the same invocation are not run after this one (EARLIER_FAILED). */
    public boolean stopsTheBatch() {
        return flag == Flag.RETRIED;
    }

    /** Refuses the job as a whole: recorded once, on the delivered occurrence, and the batch stops there. */
    public boolean refusesTheJob() {
        return flag == Flag.REFUSES_THE_JOB;
    }
}
