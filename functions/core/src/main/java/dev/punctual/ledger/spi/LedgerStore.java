package dev.punctual.ledger.spi;

import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.CompletedEntity;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.Slot;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The storage primitives the ledger is built from; each method is one atomic conditional write or one
 * consistent read. For store implementations only (the runtime and the CLI see the {@code RunLedger}
 * port). Implementations: DynamoDB, and the test kit's in-memory map for fast tests; each passes the
 * test kit's {@code RunLedgerRaceContract}. A write whose
 * outcome cannot be known throws {@link OutcomeUnknownException}; the ledger reads back.
 */
public interface LedgerStore {

    /** The job's own group, a fresh occurrence: take the lease and claim the slot in one write. */
    Write<LockState> takeLeaseAndClaimFresh(LeaseGrant grant, SlotClaim claim);

    /**
     * Take a free (or expired) lease; a maintenance grant may also replace a maintenance hold in force
     * that the same operator set, or (forced) anyone's. Rejected, the stored state shows who holds it.
     */
    Write<LockState> takeLease(LeaseGrant grant);

    /**
     * An entity's own lease, one atomic request over two items ({@link EntityGrant}): no maintenance hold
     * in force on the job's group, and on the entity's item no tombstone and a free lease whose stored
     * fence is below the grant's; with a claim, also a fresh occurrence with the cursor where expected, claimed on the slot.
     * Applied: empty (the request returns no item; the claimant knows what it wrote). Rejected: the job
     * group's state when its hold refused the grant, else the entity item's.
     */
    Write<Optional<LockState>> takeEntityLease(EntityGrant grant);

    /**
     * An entity's delete (decision 0029, 8): write the tombstone on its item, only where none stands yet.
     * Applied: the item as stored after it. Rejected: the item showing the tombstone already there (the
     * first delete's, kept).
     */
    Write<LockState> tombstoneEntity(String ledgerId, EntityTombstone tombstone);

    /**
     * The entity's write lock (ENTITY_WRITE_TAKE): set {@code owner} and {@code until} where no writer
     * stands, its {@code until} is before {@code now}, or {@code owner} stands already; false otherwise.
     */
    boolean takeEntityWrite(String ledgerId, String owner, Instant now, Instant until);

    /** ENTITY_WRITE_RENEW: set {@code until} where {@code owner} stands; false otherwise. */
    boolean renewEntityWrite(String ledgerId, String owner, Instant until);

    /** ENTITY_WRITE_RELEASE: remove the writer where {@code owner} stands; false otherwise. */
    boolean releaseEntityWrite(String ledgerId, String owner);

    /** A put of a deleted entity: remove its tombstone, only where one stands; false when there was none. */
    boolean clearEntityTombstone(String ledgerId);

    /** A put's due note on the entity's item (NOTE_DUE or CLEAR_DUE): no condition, whatever it holds. */
    void noteDue(String ledgerId, NextDue next);

    /**
     * Claim a fresh occurrence on the job's slot (the caller holds the group's lease); refused, with the
     * item, when it carries an entity's tombstone.
     */
    Write<LockState> claimFresh(SlotClaim claim);

    /** Write an in-flight run item, only if the stored one is still {@code seen} (or absent). */
    Write<Optional<RunRecord>> claimRun(RunRecord running, Optional<RunRecord> seen);

    /** Record a slot's dead run as abandoned: run item plus slot status, both conditional on its owner. */
    boolean abandonSlot(String jobId, Slot dead, RunRecord abandoned);

    /** Record a dead in-flight run item as abandoned, conditional on its owner. */
    boolean abandonRun(RunRecord dead, RunRecord abandoned);

    /** The fenced completion transaction. */
    Commit commit(CompletionPlan plan);

    /** A completion that lost its lease: store the failure unless it would hide a success or a live run. */
    boolean recordFenced(RunRecord failed, boolean onSlot);

    /**
     * Store a skip unless the occurrence already has a more telling record: a run, a success, an operator's
     * skip, or an operator's approval not yet used (decision 0041: a refused delivery of an approved
     * occurrence leaves the approval for the claim that runs it).
     */
    Write<Optional<RunRecord>> recordSkip(RunRecord skipped);

    /** Store a missed range and move the cursor to its end if that is forward; true if the cursor moved. */
    boolean recordMissed(RunRecord missed);

    Write<LockState> extendLease(Lease lease, Instant until, Instant now);

    boolean releaseLease(Lease lease, Instant now);

    /**
     * Clears a job's lease on {@code id} that ended on the caller's clock, under its owner's token
     * (LEASE_LAPSED): a claim that judged a run on another slot of its group dead (decision 0051) makes sure
     * that run can neither renew nor commit there afterwards. False when the token is gone or the lease was
     * renewed.
     */
    boolean clearLapsedLease(String id, String owner, Instant now);

    /**
     * Lifts a maintenance hold; with {@code setBy} present, only a hold that operator set (so a hold set
     * by someone else between a check and the lift is never lifted by mistake).
     */
    boolean releaseMaintenance(String group, Instant now, Optional<String> setBy);

    LockState readLock(String id);

    /** The most lock items one {@link #readPauses} request names: DynamoDB's BatchGetItem limit. */
    int PAUSES_PER_READ = 100;

    /**
     * The operators' pause marks (decision 0040) on up to {@link #PAUSES_PER_READ} lock items, in one
     * request, eventually consistent: for a listing ({@code jobs}), where a pause set a moment before may
     * not show yet, as anything changed after a listing does not; a claim never decides on it. Ids the
     * store did not get to come back in {@link PauseRead#unread()}.
     */
    PauseRead readPauses(List<String> ids);

    Optional<RunRecord> readRun(RunKey key);

    Optional<RunRecord> readMissed(RunKey firstOfRange);

    /**
     * The run items of one ledger id (run and missed-range items alike), newest occurrence first, those at
     * or after {@code since} when present, at most {@code atMost}: for operators' history, so it may be
     * eventually consistent (one Query, following its pages only as far as {@code atMost}).
     */
    List<RunRecord> readRecentRuns(String ledgerId, Optional<Instant> since, int atMost);

    /**
     * The completed one-time entities' notes of one job's shard (decision 0047), by entity id, those after
     * {@code afterEntity} when present, at most {@code atMost}: for {@code schedules list}, so it may be
     * eventually consistent (one Query, following its pages only as far as {@code atMost}).
     */
    List<CompletedEntity> readCompleted(String job, int shard, Optional<String> afterEntity, int atMost);

    /**
     * An operator's skip (decision 0033), one transaction over two items: on the job's lock item the
     * occurrence's mark (SKIP_AHEAD, then SKIP_MARK), and the planned run item (SKIP_MAY_PLAN). False
     * when either half refused it; the caller reads why.
     */
    boolean planSkip(RunRecord planned, int maxSkips);

    /** Unskip: the planned run item goes (SKIP_STILL_PLANNED) with its mark, one transaction; false when not planned. */
    boolean unskip(RunKey key);

    /** A delivery met the skip: the acted record replaces the planned one while it is still planned. */
    boolean actOnSkip(RunRecord acted);

    /** Drops marks at or behind the cursor (SKIPS_PASSED; {@code passed} sorted, the last the latest). */
    boolean pruneSkips(String lockId, java.util.List<Instant> passed);

    /**
     * An operator's pause (decision 0040): the mark on the lock item {@code id} (PAUSE_SET), only where no
     * other pause holds at {@code now} (PAUSE_MAY_SET). Applied: the item after (ALL_NEW), so the caller
     * sees a run in flight. Rejected: the item showing the pause that holds.
     */
    Write<LockState> pause(String id, PauseMark mark, Instant now);

    /**
     * A resume (decision 0040), only while the item still carries the pause the caller read
     * (PAUSE_AS_READ, its start): {@code after} empty removes the mark (RESUME_CATCH_UP), present ends the
     * span without catch-up (RESUME_SKIP_PAUSED). False when the mark is gone or another replaced it.
     */
    boolean resume(String id, PauseMark seen, java.util.Optional<PauseMark> after);

    /**
     * The pause of a group of capacity N (decision 0051), one atomic request over its slots {@code ids}
     * (slot 0 first): PAUSE_MAY_SET on slot 0, the same PAUSE_SET on every slot. False when slot 0 refused.
     */
    boolean pauseSlots(List<String> ids, PauseMark mark, Instant now);

    /**
     * Its resume, one atomic request: PAUSE_AS_READ on slot 0 (the first of {@code ids}), the same resume
     * on every slot. False when slot 0 no longer carries {@code seen}.
     */
    boolean resumeSlots(List<String> ids, PauseMark seen, Optional<PauseMark> after);

    /**
     * An operator's approval (decision 0041), one transaction over two items: on the job's (or entity's)
     * lock item the occurrence's mark (APPROVAL_AHEAD, then APPROVAL_MARK), and the planned run item:
     * where none is stored (RUN_ABSENT), or over exactly the recorded skip {@code replacing} (a refusal
     * without an operator's skip or an approval, with that reason: APPROVAL_OVER_REFUSAL). False when
     * either half refused it; the caller reads why.
     */
    boolean planApproval(RunRecord planned, Optional<RunRecord> replacing, int maxApprovals);

    /** Drops approval marks at or behind the cursor (APPROVALS_PRUNE; no condition, as for skips). */
    boolean pruneApprovals(String lockId, java.util.List<Instant> passed);

    // ---- Long occurrences (decision 0039): fenced by the claim's lease, beside the run item ----------

    /**
     * Puts (or replaces) the occurrence's execution record, only while the lease's group item carries the
     * lease's owner token, its fence, and an end after {@code now} (LEASE_OURS_AT_FENCE), in one atomic
     * request. False when the lease was no longer ours: nothing written.
     */
    boolean noteExecution(Lease lease, Instant now, ExecutionRecord execution);

    /** The occurrence's execution record (a consistent read). */
    Optional<ExecutionRecord> readExecution(RunKey key);

    /** The execution records of one ledger id, newest occurrence first, at most {@code limit} (one consistent Query). */
    java.util.List<ExecutionRecord> readRecentExecutions(String ledgerId, int limit);

    /**
     * Puts one chunk's record in one atomic request with two conditions: the chunk is as {@code seen}
     * (absent, or the same attempts and not succeeded: CHUNK_AS_SEEN) and the lease is ours at its fence at
     * {@code now} (LEASE_OURS_AT_FENCE).
     */
    ChunkPut putChunk(Lease lease, Instant now, ChunkRecord record, Optional<ChunkRecord> seen);

    /** One chunk's record (a consistent read). */
    Optional<ChunkRecord> readChunk(RunKey key, String chunk);

    /** Every chunk record of the occurrence in key order (consistent reads, every page). */
    List<ChunkRecord> readChunks(RunKey key);
}
