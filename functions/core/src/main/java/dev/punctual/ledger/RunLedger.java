package dev.punctual.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The port the Lambda runtime uses to make one scheduled occurrence take effect once. */
public interface RunLedger {

    /** Take the lock group's lease and claim the occurrence; on the happy path one conditional write. */
    ClaimResult claim(ClaimRequest request);

    /**
     * {@link #claim} that, while the group is {@link Busy} with another job, retries every
     * {@code pollEvery} for at most {@code maxWait} (on the injected clock and sleeper). It never waits
     * on maintenance or on another run of the same occurrence. A final Busy is for the caller to record
     * as a LOCK_BUSY skip, leaving the occurrence to catch-up.
     */
    ClaimResult claimWaiting(ClaimRequest request, Duration maxWait, Duration pollEvery);

    /** Finish a claim: fenced, so a success is reported only if the lease was still ours. */
    CompletionResult complete(Claim claim, Outcome outcome);

    /**
     * {@link #complete(Claim, Outcome)} of a per-entity occurrence, noting in the same request the
     * entity's next occurrence for the due watch ({@link DueIndex}, decision 0031). The note is written
     * only when the occurrence is past the cursor the claim met (a replay of an older one leaves the note
     * of the newest). A ledger that keeps no due index (a recording wrapper) completes without it.
     */
    default CompletionResult complete(Claim claim, Outcome outcome, NextDue next) {
        return complete(claim, outcome);
    }

    /** Record a skip (maintenance, busy group, disabled) for an occurrence that was not claimed. */
    SkipResult recordSkip(RunKey key, Trigger trigger, int schedulerAttempt, SkipReason reason, String detail);

    /** Record occurrences the catch-up planner will not replay, and move the cursor past them. */
    boolean recordMissed(RunKey first, Instant last, int count);

    /** The last occurrence the job completed successfully (or recorded as missed). */
    Optional<Instant> cursor(String jobId);

    /** The stored record of an occurrence, including one in flight on the job's slot. */
    Optional<RunRecord> run(RunKey key);

    /**
     * The job's (or an entity's, by its ledger id {@code job:entity}) recent occurrences, newest first, within
     * the query's bound: one Query of its run items read back from the newest, plus one read of its lock
     * item so an occurrence in flight on the slot shows, as {@link #run} shows it. For operators' history;
     * nothing decides on it.
     */
    default History history(String ledgerId, HistoryQuery query) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no history");
    }

    /**
     * Heartbeat: push a held lease's end out (to a later {@code until}), fenced — only the owner token
     * of the current fence, before the lease has ended on the caller's clock. Empty when the lease is no
     * longer ours.
     */
    Optional<Lease> extend(Lease lease, Instant until);

    /**
     * An entity's delete, before its schedule is deleted (decision 0029, 8): marks the entity's ledger id
     * ({@code job:entity}) so every later claim of its occurrences is refused as {@link EntityDeleted}; a
     * run already started finishes. Idempotent: a second delete keeps and returns the first mark.
     */
    EntityTombstone tombstoneEntity(String ledgerId, String deletedBy);

    /**
     * Takes the entity's write lock on its ledger item (issue 40): a put and a delete of one entity each
     * hold it from their ledger write to their schedule write, so they never interleave and the ledger
     * (tombstone or none) and the scheduler (schedule or none) end as the later of them left both.
     * Taken when no one holds it, when its holder's term has passed on this ledger's clock, or when
     * {@code owner} holds it already (so a resend after an unknown outcome is harmless).
     *
     * @param ledgerId the entity's ledger id, {@code job:entity}
     * @param owner a token of this one write (a UUID), never reused
     * @param term how long the lock stands without a renewal
     * @return false when another writer holds it
     */
    boolean takeEntityWrite(String ledgerId, String owner, java.time.Duration term);

    /**
     * Pushes the end of {@code owner}'s write lock out to {@code term} from now, before each schedule write;
     * false when it is no longer {@code owner}'s (its term passed and another writer took it).
     */
    boolean renewEntityWrite(String ledgerId, String owner, java.time.Duration term);

    /** Gives {@code owner}'s write lock back; nothing when it is no longer {@code owner}'s. */
    void releaseEntityWrite(String ledgerId, String owner);

    /**
     * A put of the entity, before its schedule is written: lifts the tombstone so its next occurrence is
     * claimed as usual; false when there was none.
     */
    boolean clearEntityTombstone(String ledgerId);

    /**
     * A put of the entity, after its schedule is written: notes its next occurrence after now for the due
     * watch (decision 0031), so an entity whose first delivery never comes, or whose changed schedule is
     * next due at another time, is watched from the put; none (an {@code at()} already past) takes it out
     * of the index. A completion notes it again after each occurrence.
     *
     * @param nextAfter the entity's next occurrence after an instant (the ledger's now, its clock being the
     *     one every lease is judged by); empty when it has none. The ledger knows no schedule.
     * @return what was noted
     */
    NextDue noteEntityDue(String ledgerId, java.util.function.Function<Instant, Optional<Instant>> nextAfter);

    /**
     * A page of the job's completed one-time entities (decision 0047): each {@code at()} entity whose
     * delivery's completion left it without a next occurrence, with that occurrence and its status, as the
     * completion noted it in its own transaction; kept as long as its run item. Each note read is confirmed
     * against the entity's item: one deleted since (a tombstone) is dropped. An entity put again keeps its
     * note until its next completion replaces it (the caller shows the live schedule instead, as
     * {@code schedules get} does). The notes are read eventually consistent, shard by shard.
     *
     * @param from where the page begins: {@link CompletedShards.Position#START}, or a previous page's next
     * @param limit at most this many notes read (and so entities shown), 1-1000
     */
    default CompletedPage completedEntities(String job, CompletedShards.Position from, int limit) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no completed entities");
    }

    /**
     * An operator's skip of one occurrence ahead of time (decision 0033), with who and why: a skipped
     * occurrence cannot start, a started one cannot be skipped (exactly one of a skip and a claim racing
     * wins). The key's job id is the job's, or an entity's ledger id ({@code job:entity}).
     */
    SkipPlan skip(RunKey key, String by, String why);

    /** Removes a planned skip no delivery has met yet; an acted one is kept. */
    Unskip unskip(RunKey key);

    /**
     * A delivery met the planned skip ({@link OperatorSkipped}): records that it took effect, by which
     * trigger and attempt, only while it is still planned (an unskip may have come first); empty then.
     */
    Optional<RunRecord> actOnSkip(RunRecord planned, Trigger trigger, int schedulerAttempt);

    /** The skips ahead of the job's (or entity's) cursor, oldest first, planned or acted. */
    List<RunRecord> skipsAhead(String jobId);

    /**
     * An operator's pause of a job, a lock group or an entity (decision 0040): a mark on the lock item
     * {@code lockId} that every claim on it meets in the write it already sends. From the ledger's clock
     * now; until {@code until} or a resume; {@code catchUp} says whether the span's occurrences are caught
     * up once it ends by itself. {@code by} and {@code why} are stored as given (the caller redacts).
     */
    default PauseOutcome pause(String lockId, String by, String why, Optional<Instant> until, boolean catchUp) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no pauses");
    }

    /** Ends the pause on {@code lockId} with the operator's choice for its span (decision 0040). */
    default ResumeOutcome resume(String lockId, ResumeChoice choice) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no pauses");
    }

    /**
     * The pause of a lock group of capacity {@code slots} (decision 0051): the same mark on every slot, in
     * one atomic write, so a claim on any slot meets it in the write it already sends. 1 is {@link #pause}.
     */
    default PauseOutcome pause(
            String group, int slots, String by, String why, Optional<Instant> until, boolean catchUp) {
        if (slots == 1) {
            return pause(group, by, why, until, catchUp);
        }
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no pauses of group slots");
    }

    /** Ends the pause of a group of capacity {@code slots} on every slot at once (decision 0051). */
    default ResumeOutcome resume(String group, int slots, ResumeChoice choice) {
        if (slots == 1) {
            return resume(group, choice);
        }
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no pauses of group slots");
    }

    /**
     * An operator's approval of one occurrence ahead of its claim (decision 0041), with who, why and the
     * preview they saw: the next claim of it uses it, once. The key's job id is the job's, or an entity's
     * ledger id ({@code job:entity}).
     */
    default ApprovalPlan approve(RunKey key, String by, String why, String preview) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no approvals");
    }

    /** The approvals ahead of the job's (or entity's) cursor not yet used, oldest first (decision 0041). */
    default List<RunRecord> approvalsAhead(String jobId) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no approvals");
    }

    MaintenanceReport maintenanceOn(MaintenanceRequest request);

    /** Lift maintenance from the groups; returns those it was lifted from. */
    default List<String> maintenanceOff(List<String> groups) {
        return maintenanceOff(groups, Optional.empty());
    }

    /** Lift maintenance only where {@code setBy} (when present) set the hold; returns where it was lifted. */
    List<String> maintenanceOff(List<String> groups, Optional<String> setBy);

    /**
     * A maintenance hold's renewal (decision 0036): sets a held group's end to {@code until}, earlier or
     * later than its current end, fenced as {@link #extend} is (our owner token, our fence, the lease still
     * held at the ledger's now). A command's hold is taken to last through its take's wait, then renewed
     * to {@code now + lapse} at once, so a holder that dies afterwards holds the stage one lapse at most.
     * Empty when the group is no longer ours.
     */
    Optional<Lease> renewHold(Lease lease, Instant until);

    /**
     * Give back the groups a hold of ours took ({@code maintenance hold} ending, decision 0036): each is
     * released only while its lease is still the one we took (our owner token), so a hold another
     * operator forced over ours, or a job's lease taken after ours lapsed, is left alone. Safe to send
     * again. Returns the groups released.
     */
    List<String> releaseMaintenance(List<Lease> held);

    /** A group's lock item as stored (lease holder, until, fence), for operators' status. */
    LockState lock(String group);

    /**
     * The operators' pause marks (decision 0040) on these lock items, by id; an id with no mark (or no
     * item) is left out. For a listing ({@code jobs}): read eventually consistent, in as few requests as
     * the store allows (DynamoDB: one BatchGetItem per 100 ids), so a pause set a moment before may not
     * show yet. A claim never decides on it: its own write meets the mark ({@code NOT_PAUSED}).
     */
    Map<String, PauseMark> pauses(Collection<String> lockIds);

    /** The maintenance hold on a group, if one is in force. */
    Optional<MaintenanceHold> maintenance(String group);

    /**
     * What this ledger keeps of long occurrences (decision 0039): their executions and chunks, fenced by the
     * claim's lease. A ledger that keeps none (a recording wrapper in a test) says so when asked.
     */
    default LongRunLedger longRuns() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no long runs");
    }
}
