package dev.punctual.runtime;

import dev.punctual.PunctualException;
import dev.punctual.catchup.StartDeadline;
import dev.punctual.job.Delivery;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobLease;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import dev.punctual.job.SuppressedDelivery;
import dev.punctual.json.Json;
import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.EntityDeleted;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.OperatorSkipped;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.SkipResult;
import dev.punctual.ledger.Summaries;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.Unapproved;
import dev.punctual.ledger.UnderMaintenance;
import dev.punctual.observability.StructuredLog;
import dev.punctual.observability.VisibleText;
import dev.punctual.outcome.Reason;
import dev.punctual.time.ExcludedSpan;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one occurrence of one job: stage guards, claim (waiting a bounded time for a busy lock group),
 * the job, the fenced completion. Every path ends in exactly one {@link OccurrenceReport}, and every
 * refusal that concerns the ledger is recorded there before the report is made.
 */
final class OccurrenceRunner {

    private static final Duration LOCK_POLL = Duration.ofMillis(250);

    /**
     * How often a scheduled delivery asks again while another job of its group holds the group past
     * the stage's lock wait: a rejected conditional write each time, so a long wait stays cheap.
     */
    static final Duration SIBLING_POLL = Duration.ofSeconds(2);

    private final RuntimeServices services;
    private final CatalogOrder order;
    private final MaintenanceConditions conditions;

    OccurrenceRunner(RuntimeServices services) {
        this.services = services;
        this.order = new CatalogOrder(services);
        this.conditions = new MaintenanceConditions(services.catalog().maintenanceConditions(), services.conditions());
    }

    /**
     * One occurrence to run, with how it came to be run.
     *
     * @param refusalKey where a refusal that concerns the whole job (schedules off, destructive, lock busy,
     *     maintenance) is recorded and reported: the delivered occurrence, even while catching up an
     *     older one, so a refused delivery leaves one record and the older occurrences stay pending
     */
    record Request(
            RunSubject subject,
            Instant occurrence,
            Trigger trigger,
            int schedulerAttempt,
            boolean force,
            RunKey refusalKey,
            boolean deadlineWaived) {

        /** Judged by the job's start deadline (decision 0032) unless a forced replay waives it. */
        Request(
                RunSubject subject,
                Instant occurrence,
                Trigger trigger,
                int schedulerAttempt,
                boolean force,
                RunKey refusalKey) {
            this(subject, occurrence, trigger, schedulerAttempt, force, refusalKey, false);
        }

        static Request of(
                RunSubject subject, Instant occurrence, Trigger trigger, int schedulerAttempt, boolean force) {
            return new Request(subject, occurrence, trigger, schedulerAttempt, force, subject.key(occurrence));
        }

        JobDefinition job() {
            return subject.job();
        }
    }

    /** What trying to claim an occurrence led to: a claim to run, or already a final report. */
    sealed interface ClaimStep {
        record Held(Claim claim) implements ClaimStep {}

        record Finished(OccurrenceReport report) implements ClaimStep {}
    }

    OccurrenceReport run(Request request, Deadline deadline, StructuredLog log) {
        return switch (claim(request, deadline)) {
            case ClaimStep.Held held -> execute(request, held.claim(), deadline, log);
            case ClaimStep.Finished finished -> finished.report();
        };
    }

    /** The stage guards, then the claim (waiting a bounded time while the group is busy). */
    ClaimStep claim(Request request, Deadline deadline) {
        JobDefinition job = request.job();
        RunKey key = request.refusalKey();
        if (request.trigger().fromSchedule() && !services.flags().schedulesEnabled()) {
            return finished(skipRecorded(request, key, Reason.SCHEDULES_DISABLED, null));
        }
        if (job.destructive() && !services.flags().destructiveEnabled()) {
            String why = "stage " + services.flags().stage() + " does not allow destructive jobs";
            return finished(refused(request, Reason.DESTRUCTIVE_DISABLED, why));
        }
        if (judgedByDeadline(request) && request.trigger().fromSchedule()) {
            Optional<OccurrenceReport> excluded = excluded(request);
            if (excluded.isPresent()) {
                return finished(excluded.get());
            }
        }
        Optional<StartDeadline.TooLate> late = judgedByDeadline(request)
                ? StartDeadline.judge(
                        job.deadline(), request.occurrence(), services.clock().instant())
                : Optional.empty();
        if (late.isPresent()) {
            return finished(deadlinePassed(request, late.get()));
        }
        if (request.trigger().fromSchedule() && request.subject().entity().isEmpty()) {
            // The catalog's order is among its jobs' own schedules; an entity's schedule is not one of them.
            letEarlierJobsGoFirst(request, deadline);
        }
        // After the wait for earlier jobs, just before the claim: data loaded meanwhile is seen.
        Optional<OccurrenceReport> heldByData = heldByData(request, key);
        if (heldByData.isPresent()) {
            return finished(heldByData.get());
        }
        ClaimResult claim = claimWithinLockWait(request, request.subject().key(request.occurrence()), deadline);
        return decided(request, key, deadline, claim, true);
    }

    /**
     * What a claim's answer leads to. {@code mayClaimAgain}: an UNAPPROVED skip refused because an approval
     * was written since the claim (decision 0041) claims once more, and only once.
     */
    private ClaimStep decided(
            Request request, RunKey key, Deadline deadline, ClaimResult claim, boolean mayClaimAgain) {
        return switch (claim) {
            case ClaimResult.Claimed claimed -> new ClaimStep.Held(claimed.claim());
            case ClaimResult.AlreadyDone done ->
                finished(report(request, Reason.ALREADY_DONE, done.record().attempts(), null, null));
            case ClaimResult.InProgressElsewhere other ->
                finished(report(request, Reason.IN_PROGRESS_ELSEWHERE, 0, null, "held until " + other.until()));
            case ClaimResult.AttemptsExhausted exhausted ->
                finished(report(
                        request,
                        Reason.ATTEMPTS_EXHAUSTED,
                        exhausted.last().attempts(),
                        null,
                        exhausted.last().errorSummary()));
            case Busy busy ->
                finished(skipRecorded(
                        request, key, Reason.LOCK_BUSY, "group " + busy.group() + " busy until " + busy.until()));
            // The hold's reason, already redacted, is printed in run tables and logs: one line, whatever was stored.
            case UnderMaintenance m ->
                finished(skipRecorded(request, key, Reason.MAINTENANCE, m.hold().shownReason()));
            // A delivery in flight after the entity's delete (decision 0029, 8): recorded, never run.
            case EntityDeleted deleted ->
                finished(skipRecorded(request, key, Reason.ENTITY_DELETED, deletedDetail(deleted)));
            case OperatorSkipped skipped -> operatorSkipped(request, skipped.record(), deadline);
            case ClaimResult.Paused paused ->
                finished(paused(request, paused.mark().describe()));
            case Unapproved unapproved -> unapproved(request, unapproved, deadline, mayClaimAgain);
        };
    }

    /** The detail's start of an UNAPPROVED skip, which says how to approve the occurrence. */
    static final String NEEDS_APPROVAL = "needs approval: punctual approve ";

    /**
     * The job needs an operator's approval of the occurrence and its claim found none (decision 0041):
     * recorded on the occurrence's own run item as UNAPPROVED, never run, alarmed. The skip's write is refused
     * over an approval written since the claim; the occurrence is then claimed again, and runs. A catch-up or
     * duplicate meeting the same UNAPPROVED skip reports it as recorded before and writes nothing, so it
     * pages once.
     */
    private ClaimStep unapproved(Request request, Unapproved unapproved, Deadline deadline, boolean mayClaimAgain) {
        RunKey own = request.subject().key(request.occurrence());
        String detail = NEEDS_APPROVAL + request.job().id()
                + request.subject()
                        .entity()
                        .map(e -> " --entity " + request.subject().entityId())
                        .orElse("")
                + " --at " + request.occurrence();
        Request onOwnKey = new Request(
                request.subject(),
                request.occurrence(),
                request.trigger(),
                request.schedulerAttempt(),
                request.force(),
                own,
                request.deadlineWaived());
        boolean already = unapproved
                .record()
                .filter(r ->
                        r.status() == RunStatus.SKIPPED && r.plannedApproval().isEmpty())
                .map(RunRecord::reason)
                .filter(r -> r != null && r.startsWith(SkipReason.UNAPPROVED.name()))
                .isPresent();
        if (already) {
            return finished(report(onOwnKey, Reason.UNAPPROVED, 0, null, RECORDED_BEFORE + detail));
        }
        SkipResult recorded = services.ledger()
                .recordSkip(
                        own,
                        request.trigger(),
                        request.schedulerAttempt(),
                        SkipReason.UNAPPROVED,
                        recordedDetail(Reason.UNAPPROVED, detail));
        boolean approvedMeanwhile = recorded instanceof SkipResult.Kept kept
                && kept.existing().flatMap(RunRecord::plannedApproval).isPresent();
        if (approvedMeanwhile && mayClaimAgain) {
            ClaimResult again = claimWithinLockWait(request, own, deadline);
            return decided(request, request.refusalKey(), deadline, again, false);
        }
        return finished(report(onOwnKey, Reason.UNAPPROVED, 0, null, detail));
    }

    /**
     * The catalog's maintenance conditions (decision 0036, 5), after the stage guards and the date's own
     * skips (neither needs the data) and before the claim: while one finds data, the occurrence is
     * skipped as under maintenance, with the condition's reason; one that cannot be evaluated skips it
     * as MAINTENANCE_UNKNOWN. Both leave it pending for the catch-up of a later delivery.
     */
    private Optional<OccurrenceReport> heldByData(Request request, RunKey key) {
        if (request.job().id().equals(MissedRunWatchdog.ID)) {
            // The built-in watchdog keeps watching (as through a blackout): it only reads the ledger, and a
            // stage held by its data for hours must not page as a silent watchdog.
            return Optional.empty();
        }
        return switch (conditions.evaluate()) {
            case MaintenanceConditions.Verdict.Clear clear -> Optional.empty();
            case MaintenanceConditions.Verdict.Holds holds ->
                Optional.of(skipRecorded(
                        request, key, Reason.MAINTENANCE, holds.condition().described()));
            case MaintenanceConditions.Verdict.Unknown unknown ->
                Optional.of(skipRecorded(
                        request,
                        key,
                        Reason.MAINTENANCE_UNKNOWN,
                        "condition " + unknown.condition().name() + " could not be evaluated: " + unknown.why()));
        };
    }

    /**
     * The occurrence carries an operator's skip (decision 0033). A planned one is marked as met by this
     * delivery, in a write conditional on it still being planned: an unskip that came first makes the
     * occurrence claimable again, and the claim is tried once more. One already met is reported again and
     * nothing is written. Never counted as missed.
     */
    private ClaimStep operatorSkipped(Request request, RunRecord record, Deadline deadline) {
        OperatorSkip skip = record.skip().orElseThrow();
        if (!skip.planned()) {
            return finished(report(request, Reason.OPERATOR_SKIPPED, 0, null, RECORDED_BEFORE + skip.describe()));
        }
        Optional<RunRecord> acted = services.ledger().actOnSkip(record, request.trigger(), request.schedulerAttempt());
        if (acted.isPresent()) {
            return finished(report(request, Reason.OPERATOR_SKIPPED, 0, null, skip.describe()));
        }
        return claim(request, deadline);
    }

    /**
     * The start deadline judges the scheduler's deliveries, each caught-up occurrence (against its own
     * time) and a replay's occurrences unless forced; an operator's {@code run} of one occurrence is
     * deliberate and is not judged (decision 0032).
     */
    private static boolean judgedByDeadline(Request request) {
        return switch (request.trigger()) {
            case SCHEDULED, CATCH_UP -> true;
            case REPLAY -> !request.deadlineWaived();
            case MANUAL -> false;
        };
    }

    /** The detail's start when the occurrence's deadline skip was already recorded (and counted) before. */
    static final String RECORDED_BEFORE = "recorded before: ";

    /**
     * Whether the report is a deadline skip this invocation recorded, counted as one missed occurrence; a
     * repeat (catch-up meeting the same too-late occurrence again) is not counted twice.
     */
    static boolean countsAsMissed(OccurrenceReport report) {
        return (report.reason() == Reason.DEADLINE_PASSED || report.reason() == Reason.CALENDAR_ENDED)
                && (report.detail() == null || !report.detail().startsWith(RECORDED_BEFORE));
    }

    /**
     * Records a too-late occurrence on its own run item (not the delivered one's: each caught-up occurrence
     * is judged against its own deadline), nothing claimed, so no attempt counts and the cursor stays; the
     * next success moves it past. A skip never overwrites a run or a success (the ledger keeps those).
     */
    private OccurrenceReport deadlinePassed(Request request, StartDeadline.TooLate late) {
        return skippedOnOwnKey(request, Reason.DEADLINE_PASSED, late.detail());
    }

    /**
     * A scheduled occurrence the job's calendar or a blackout takes out (decision 0034): recorded on its own
     * run item as SKIP CALENDAR or BLACKOUT, never claimed, never counted as missed; the job's occurrences
     * (what catch-up and the watchdog walk) do not include it, so nothing meets it again. One on a date past
     * its calendar's range is recorded as CALENDAR_ENDED and counted as missed, once, like a deadline skip.
     */
    private Optional<OccurrenceReport> excluded(Request request) {
        var exclusions = request.job().exclusions();
        if (exclusions.isEmpty()) {
            return Optional.empty();
        }
        Optional<ExcludedSpan> span = exclusions.covering(request.occurrence());
        if (span.isPresent()) {
            Reason reason = span.get().kind() == ExcludedSpan.Kind.CALENDAR ? Reason.CALENDAR : Reason.BLACKOUT;
            return Optional.of(skippedOnOwnKey(request, reason, span.get().why()));
        }
        return exclusions
                .calendarBeyondRange(request.occurrence())
                .map(why -> skippedOnOwnKey(request, Reason.CALENDAR_ENDED, why));
    }

    /**
     * An operator's pause (decision 0040), refused in the claim's own write: recorded with who and why on the
     * occurrence's own run item (a caught-up occurrence's too, not the delivered one's: a pause concerns
     * occurrences, and one kept refused after the pause is met again by each catch-up). Without reading the
     * item first, so a paused delivery costs the refused claim and this write; a repeat replaces a skip
     * with the same skip, and never a run or a success (ONLY_SKIP_STORED).
     */
    private OccurrenceReport paused(Request request, String detail) {
        RunKey own = request.subject().key(request.occurrence());
        Request onOwnKey = new Request(
                request.subject(),
                request.occurrence(),
                request.trigger(),
                request.schedulerAttempt(),
                request.force(),
                own,
                request.deadlineWaived());
        return skipRecorded(onOwnKey, own, Reason.PAUSED, detail);
    }

    /**
     * Records a skip of the occurrence on its own run item, nothing claimed; when the same skip was already
     * recorded (a catch-up or a duplicate delivery meeting it again), reports it as recorded before and
     * writes nothing, so a counted skip is counted once.
     */
    private OccurrenceReport skippedOnOwnKey(Request request, Reason reason, String detail) {
        RunKey own = request.subject().key(request.occurrence());
        Optional<RunRecord> before = services.ledger().run(own);
        boolean already = before.filter(r -> r.status() == RunStatus.SKIPPED)
                .map(RunRecord::reason)
                .filter(e -> e != null
                        && (e.equals(recordedAs(reason).name())
                                || e.startsWith(recordedAs(reason).name() + ":")))
                .isPresent();
        Request onOwnKey = new Request(
                request.subject(),
                request.occurrence(),
                request.trigger(),
                request.schedulerAttempt(),
                request.force(),
                own,
                request.deadlineWaived());
        if (already) {
            return report(onOwnKey, reason, 0, null, RECORDED_BEFORE + detail);
        }
        return skipRecorded(onOwnKey, own, reason, detail);
    }

    /** Who deleted the entity and when, as the delete named itself (one line, like a hold's reason). */
    private static String deletedDetail(EntityDeleted deleted) {
        return deleted.ledgerId() + " deleted at " + deleted.tombstone().deletedAt() + " by "
                + VisibleText.escaped(deleted.tombstone().deletedBy());
    }

    /**
     * Refuses the request before any claim, recorded as a REFUSED skip on its refusal key: no lease is
     * taken, no attempt counted and the cursor stays where it is.
     */
    OccurrenceReport refused(Request request, Reason reason, String detail) {
        return skipRecorded(request, request.refusalKey(), reason, detail);
    }

    /**
     * Gives a claim back without running it: recorded as a skip, so the occurrence stays claimable and
     * the lease is released in the same write.
     */
    OccurrenceReport giveBack(Request request, Claim claim, Reason reason, String detail) {
        complete(request, claim, new Outcome.Skipped(recordedAs(reason), detail));
        return timed(request, reason, claim, 0, detail);
    }

    /**
     * The fenced completion; an entity's also notes its next occurrence for the due watch (decision 0031),
     * from the schedule the delivery carried, in the same request.
     */
    private CompletionResult complete(Request request, Claim claim, Outcome outcome) {
        if (request.subject().entity().isEmpty()) {
            return services.ledger().complete(claim, outcome);
        }
        Optional<Instant> next =
                request.subject().occurrences().next(claim.key().scheduledTime());
        return services.ledger().complete(claim, outcome, new NextDue(next));
    }

    private static ClaimStep finished(OccurrenceReport report) {
        return new ClaimStep.Finished(report);
    }

    /**
     * The ledger waits for a busy group itself, a bounded time on the injected clock and sleeper. A
     * scheduled delivery that finds another job of its group still running after the stage's lock wait
     * (two jobs of one group due in the same minute) keeps waiting, within its own invocation, so both
     * run in that minute instead of the second being left to its next delivery's catch-up.
     */
    private ClaimResult claimWithinLockWait(Request request, RunKey key, Deadline deadline) {
        ClaimResult result = services.ledger()
                .claimWaiting(
                        claimRequest(request, key, deadline), services.flags().lockWait(), LOCK_POLL);
        // Each further attempt asks for its lease from its own time (a lease term shorter than the
        // invocation would otherwise be spent waiting) and only while a run still fits after it.
        while (result instanceof Busy busy && waitsForASibling(request, busy) && siblingWaitFits(deadline)) {
            pause(SIBLING_POLL);
            result = services.ledger().claim(claimRequest(request, key, deadline));
        }
        return result;
    }

    /** Waits, while a run still fits, for the jobs of its group due before it at the same instant. */
    private void letEarlierJobsGoFirst(Request request, Deadline deadline) {
        for (JobDefinition earlier : order.before(request.job(), request.occurrence())) {
            while (order.pending(earlier, request.occurrence()) && siblingWaitFits(deadline)) {
                pause(SIBLING_POLL);
            }
        }
    }

    private ClaimRequest claimRequest(Request request, RunKey key, Deadline deadline) {
        ClaimRequest claim = groupClaimRequest(request, key, deadline);
        if (!request.subject().ownEntityLease()) {
            return claim;
        }
        // An in-order occurrence finds the cursor at the one before it: the one-request claim's condition.
        Optional<Instant> previous = request.subject().occurrences().previous(key.scheduledTime());
        return claim.onEntityLease(request.job().lockGroup(), previous);
    }

    private ClaimRequest groupClaimRequest(Request request, RunKey key, Deadline deadline) {
        ClaimRequest claim = new ClaimRequest(
                key,
                request.subject().lockGroup(),
                request.trigger(),
                request.schedulerAttempt(),
                request.job().maxAttempts(),
                request.force(),
                deadline.leaseFor(services.clock().instant()));
        if (!request.subject().ownEntityLease()) {
            // A group admitting N runs at once (decision 0051): its claim tries the group's N slots.
            claim = claim.withGroupCapacity(
                    services.catalog().groupCapacity(request.subject().lockGroup()));
        }
        // Decision 0041: only a job needing approval in this stage adds the approval's clause to its claim.
        return request.job().requiresApproval(services.flags().destructiveEnabled()) ? claim.needingApproval() : claim;
    }

    /** Whether one more poll still leaves the minimum an occurrence needs once it is claimed. */
    private boolean siblingWaitFits(Deadline deadline) {
        Instant afterPoll = services.clock().instant().plus(SIBLING_POLL);
        return !afterPoll.isAfter(deadline.workUntil().minus(Deadline.MINIMUM_PER_OCCURRENCE));
    }

    private void pause(Duration duration) {
        try {
            services.sleeper().sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PunctualException("interrupted while waiting for another job of the lock group", e);
        }
    }

    /**
     * Only the scheduler's deliveries wait on, and only for another job of the group (an operator gets
     * LOCK_BUSY at once; an earlier run of the same job is left to catch-up as before).
     */
    private static boolean waitsForASibling(Request request, Busy busy) {
        return request.trigger().fromSchedule() && !request.subject().ledgerId().equals(busy.holder());
    }

    OccurrenceReport execute(Request request, Claim claim, Deadline deadline, StructuredLog log) {
        if (request.job().isLong()) {
            return handOff(request, claim);
        }
        Instant started = services.clock().instant();
        LeaseKeeper lease = new LeaseKeeper(services.ledger(), services.clock(), deadline, claim.lease());
        if (lease.over() || !lease.readyToStart(Deadline.MINIMUM_PER_OCCURRENCE)) {
            return leaseEndedBeforeStart(request, claim, started);
        }
        Ran ran = runJob(request, claim, lease, log);
        CompletionResult completion = complete(request, claim, ran.outcome());
        long durationMs = Duration.between(started, services.clock().instant()).toMillis();
        return switch (completion) {
            case CompletionResult.Completed done
            when done.record().status() == RunStatus.SUCCEEDED ->
                // The summary is the report's result, an object; its detail stays for text that explains.
                timed(request, Reason.OK, claim, durationMs, null).withResult(ran.result());
            case CompletionResult.Completed done ->
                timed(
                        request,
                        Reason.JOB_ERROR,
                        claim,
                        durationMs,
                        done.record().errorSummary());
            case CompletionResult.Fenced fenced ->
                timed(
                        request,
                        Reason.FENCED,
                        claim,
                        durationMs,
                        "lease lost before completion (fence " + claim.fence() + ")");
        };
    }

    /**
     * A long job's claim goes to its execution (decision 0039): STARTED with the execution's name while the
     * claim keeps the group; a lease lost before the start is a failed attempt (LEASE_ENDED) as for a short
     * job; an execution of the claim's name found closed is recorded from its status. When the engine cannot
     * be reached the start's outcome is unknown: the claim stays held (the same name is sent again by the
     * watchdog's sweep, never a second execution) and the delivery fails so that it is seen.
     */
    private OccurrenceReport handOff(Request request, Claim claim) {
        LongStart.Handed handed;
        try {
            handed = new LongStart(services).start(request.subject(), claim);
        } catch (dev.punctual.longrun.LongExecutionException e) {
            String why = "the execution's start is unknown (" + Summaries.sanitise(e.getMessage())
                    + "); the claim stays held and the watchdog's sweep starts it under the same name";
            return timed(request, Reason.JOB_ERROR, claim, 0, why);
        }
        return switch (handed) {
            case LongStart.Handed.Started started ->
                timed(request, Reason.STARTED, claim, 0, "execution " + started.name())
                        .withResult(Map.of("execution", started.name()));
            case LongStart.Handed.LeaseLost lost -> {
                complete(request, claim, new Outcome.Failed(lost.detail()));
                yield timed(request, Reason.LEASE_ENDED, claim, 0, lost.detail());
            }
            case LongStart.Handed.Closed closed -> {
                String why = LongFold.describe(closed.execution());
                complete(request, claim, new Outcome.Failed(why));
                yield timed(request, Reason.EXECUTION_FAILED, claim, 0, why);
            }
        };
    }

    /**
     * The job is not started on a lease that is already over, or that leaves less than the minimum an
     * occurrence needs even after a renewal (the invocation itself ends too soon): the attempt is recorded as failed (its
     * completion is fenced by the store if the lease is gone, as it usually is) and retried like any
     * failure, while whoever holds the group now runs undisturbed.
     */
    private OccurrenceReport leaseEndedBeforeStart(Request request, Claim claim, Instant now) {
        String detail = "the lease (fence " + claim.fence() + ", until "
                + claim.lease().expiresAt()
                + ") had less than " + Deadline.MINIMUM_PER_OCCURRENCE.toSeconds() + " s of working time left at "
                + now + " when the claim came back; the job was not started";
        complete(request, claim, new Outcome.Failed(detail));
        return timed(request, Reason.LEASE_ENDED, claim, 0, detail);
    }

    /** The job's outcome for the ledger, and on a pass its result summary for the outcome line. */
    private record Ran(Outcome outcome, Map<String, Object> result) {}

    private Ran runJob(Request request, Claim claim, LeaseKeeper lease, StructuredLog log) {
        JobDefinition job = request.job();
        JobContext context = new JobContext(
                job.id(),
                request.occurrence(),
                local(request),
                request.trigger(),
                claim.fence(),
                lease,
                services.flags(),
                new JobContext.JobLog(log, job.id(), request.occurrence()),
                delivery(log),
                services.clock(),
                request.subject().entity());
        try {
            JobResult result = job.factory().apply(services.jobServices()).run(context);
            Map<String, Object> summary = ResultSummary.of(log.redactor(), result.summary());
            return new Ran(new Outcome.Succeeded(log.redactor().text(stored(summary))), summary);
        } catch (Exception | LinkageError | StackOverflowError e) {
            // A job's own error, including a missing class or runaway recursion, is the occurrence's
            // failure, recorded like any other; only the JVM's own distress (out of memory) propagates.
            return new Ran(new Outcome.Failed(log.redactor().text(Summaries.ofError(e))), Map.of());
        }
    }

    /**
     * A dry run of the request: the job's preview of what it would do, with nothing claimed, written or
     * sent (the delivery port is the suppressed one whatever the stage allows). A preview that fails is
     * reported in the detail, not as the occurrence's failure: nothing ran.
     */
    OccurrenceReport preview(Request request, Deadline deadline, StructuredLog log) {
        JobDefinition job = request.job();
        JobContext context = new JobContext(
                job.id(),
                request.occurrence(),
                local(request),
                request.trigger(),
                0,
                JobLease.until(deadline.workUntil()),
                services.flags(),
                new JobContext.JobLog(log, job.id(), request.occurrence()),
                new SuppressedDelivery(services.flags().stage(), log),
                services.clock(),
                request.subject().entity());
        try {
            Optional<JobPreview> preview =
                    job.factory().apply(services.jobServices()).preview(context);
            String detail = preview.map(p -> "would run: " + counted(p.changes(), "change", "changes") + ", "
                            + counted(p.deliveries(), "delivery", "deliveries") + ", "
                            + counted(p.deletions(), "deletion", "deletions"))
                    .orElse("would run; the job cannot count what it would do");
            return report(request, Reason.DRY_RUN, 0, null, detail).withPreview(preview);
        } catch (Exception | LinkageError | StackOverflowError e) {
            String why = log.redactor().line(Summaries.ofError(e));
            return report(request, Reason.DRY_RUN, 0, null, "would run; its preview failed: " + why);
        }
    }

    private Delivery delivery(StructuredLog log) {
        return services.flags().externalDeliveryEnabled()
                ? services.delivery()
                : new SuppressedDelivery(services.flags().stage(), log);
    }

    /** The ledger's skip category of a reason the runtime records; a reason without one is a bug here. */
    private static SkipReason recordedAs(Reason reason) {
        return reason.recordedAs()
                .orElseThrow(() -> new IllegalStateException(reason + " is not recorded in the ledger"));
    }

    /** The ledger prefixes its skip category; add the reason only where it says more. */
    private static String recordedDetail(Reason reason, String detail) {
        String prefix = reason.wire().equals(recordedAs(reason).name()) ? "" : reason.wire();
        String text = (prefix + " " + (detail == null ? "" : detail)).strip();
        return text.isEmpty() ? null : text;
    }

    private OccurrenceReport skipRecorded(Request request, RunKey key, Reason reason, String detail) {
        services.ledger()
                .recordSkip(
                        key,
                        request.trigger(),
                        request.schedulerAttempt(),
                        recordedAs(reason),
                        recordedDetail(reason, detail));
        Request reported = new Request(
                request.subject(),
                key.scheduledTime(),
                request.trigger(),
                request.schedulerAttempt(),
                request.force(),
                key);
        return report(reported, reason, 0, null, detail);
    }

    private OccurrenceReport timed(Request request, Reason reason, Claim claim, long durationMs, String detail) {
        return report(request, reason, claim.attempt(), claim.fence(), durationMs, detail);
    }

    private OccurrenceReport report(Request request, Reason reason, int attempt, Long fence, String detail) {
        return report(request, reason, attempt, fence, 0, detail);
    }

    private static OccurrenceReport report(
            Request request, Reason reason, int attempt, Long fence, long durationMs, String detail) {
        return new OccurrenceReport(
                request.job().id(),
                request.occurrence(),
                local(request),
                request.trigger(),
                reason,
                attempt,
                fence,
                durationMs,
                detail,
                Map.of(),
                Optional.empty(),
                request.subject().entityId());
    }

    private static ZonedDateTime local(Request request) {
        return request.occurrence().atZone(request.subject().schedule().zone());
    }

    /** The run item keeps the same object, rendered; none when the job reported nothing. */
    private static String stored(Map<String, Object> summary) {
        if (summary.isEmpty()) {
            return null;
        }
        return Json.write(summary);
    }

    /** {@code 1 change}, {@code 2 changes}: a count read as a person writes it. */
    static String counted(long count, String one, String many) {
        return count + " " + (count == 1 ? one : many);
    }
}
