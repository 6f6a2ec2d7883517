package dev.punctual.ledger.dynamodb;

/**
 * Every condition and update expression the ledger sends, named. {@code #x} is always the attribute
 * {@code x}; values: {@code :now} the caller's clock (epoch millis), {@code :t} the occurrence (epoch
 * millis), {@code :token} the caller's owner token. docs/ledger.md explains each in prose.
 */
final class Expressions {

    private Expressions() {}

    // ---- Conditions ----------------------------------------------------------------------------------

    /**
     * The lease is free: never taken, released (owner and end removed), or past its end. The end is
     * checked here and never left to TTL, which deletes "within a few days". An expired lease is taken
     * over at once, without waiting another full lease.
     */
    static final String LEASE_FREE = "(attribute_not_exists(#leaseUntil) OR #leaseUntil <= :now)";

    /**
     * Maintenance may take a free lease (a hold past its end is free: LEASE_FREE compares the end with
     * the caller's clock, as for every lease), or replace a hold in force that the same operator set
     * (turning maintenance on again extends or rewords it). Never another operator's hold in force:
     * checked here, in the write, so of concurrent requests exactly one is told it holds (issue 24:
     * each replaced the last, and all were told the hold was theirs). Never a job's live lease: it
     * waits for the job instead.
     */
    static final String MAINTENANCE_MAY_TAKE = LEASE_FREE + " OR (#leaseKind = :maintenance AND #maintBy = :setBy)";

    /**
     * A command's hold ({@code maintenance hold}, decision 0036) takes only a free lease: it replaces no
     * hold in force, not even one its own operator set. Replacing it would let two tools run under one
     * {@code --by} at once, and the first to end would give back the other's hold (or an operator's
     * {@code maintenance on} of days) with its own.
     */
    static final String COMMAND_HOLD_MAY_TAKE = LEASE_FREE;

    /**
     * {@code maintenance on --force}: a hold in force is replaced whoever set it; still never a job's
     * live lease.
     */
    static final String MAINTENANCE_MAY_FORCE = LEASE_FREE + " OR #leaseKind = :maintenance";

    /** The cursor only moves forward. */
    static final String CURSOR_BEHIND = "(attribute_not_exists(#cursor) OR #cursor < :t)";

    /**
     * No operator's skip of this occurrence (decision 0033): {@code punctual skip} adds it to the lock
     * item's {@code skips} number set in the same transaction that writes its run item, so every fresh
     * claim (the three writes that claim without reading the run item) is refused in its own write; a
     * claim that then reads the run item finds the skip there. {@code contains} on an absent set is false.
     */
    static final String NOT_SKIPPED = "NOT contains(#skips, :t)";

    /**
     * No operator's pause refuses this claim (decision 0040), on every write that takes a lease or claims
     * on a lock item: (1) no pause on the item, or (2) one that has ended on the caller's clock (an absent
     * {@code pausedTo} compares false: paused until resumed) and (3) either its span is caught up, or the
     * occurrence lies outside the span {@code [pausedFrom, pausedTo)}: a span ended without catch-up stays
     * refused, so its occurrences are recorded as paused and never run. Checked in the write the claim
     * already sends, so a paused delivery costs no extra request, and of a pause and a claim racing on the
     * item exactly one is first.
     */
    static final String NOT_PAUSED = "(attribute_not_exists(#pausedFrom) OR (#pausedTo <= :now"
            + " AND (#pauseCatchUp = :true OR :t < #pausedFrom OR :t >= #pausedTo)))";

    /**
     * What {@code jobs} reads of each lock item (RunLedger.pauses): its key, to tell which id an answer is
     * (a BatchGetItem answers in no order), and the pause mark's attributes, nothing else: the operator
     * policy's BatchGetItem grant names just these.
     */
    static final String PAUSE_MARK_PROJECTION =
            "#pk, #sk, #pausedFrom, #pausedTo, #pausedBy, #pausedWhy, #pauseCatchUp";

    /**
     * The occurrence is fresh for the job, so it can be claimed without reading its run item:
     * (1) after the cursor — an occurrence at or before it may have succeeded already;
     * (2) after the slot's occurrence — the slot only moves forward, so no run item (no earlier
     * attempt) can exist for a later occurrence;
     * (3) nothing left running on the slot — a dead run must be recorded abandoned before the slot is
     * reused, or it would vanish without a record;
     * (4) no operator's skip of it (NOT_SKIPPED).
     */
    static final String OCCURRENCE_FRESH = CURSOR_BEHIND
            + " AND (attribute_not_exists(#occ) OR #occ < :t)"
            + " AND (attribute_not_exists(#occStatus) OR #occStatus <> :running)"
            + " AND " + NOT_SKIPPED;

    /** The happy path: a free lease and a fresh occurrence, checked together on the job's own item. */
    static final String TAKE_LEASE_AND_CLAIM_CONDITION = LEASE_FREE + " AND " + OCCURRENCE_FRESH + " AND " + NOT_PAUSED;

    /**
     * A job's lease alone (the general path, on its own group's item or a shared group's): free, and not
     * paused for this occurrence (NOT_PAUSED): a paused group refuses every member, a paused job its own
     * group. A maintenance hold is never refused by a pause.
     */
    static final String TAKE_JOB_LEASE_CONDITION = LEASE_FREE + " AND " + NOT_PAUSED;

    /** Completion and extension: still our lease (owner token) and not yet ended (our clock). */
    static final String LEASE_OURS = "#leaseOwner = :token AND #leaseUntil > :now";

    /**
     * Extension: our lease at the fence we were granted. The owner token is fresh for every acquisition,
     * so it already names one fence; the fence is checked too so the rule reads as it is meant. Also the
     * ConditionCheck on the group item in every write of a long occurrence's records (decision 0039): a
     * step of an execution whose claim ended or was taken over writes nothing.
     */
    static final String LEASE_OURS_AT_FENCE = LEASE_OURS + " AND #leaseFence = :fence";

    /**
     * Renewing a maintenance hold: our owner token (fresh for every acquisition, so it names this hold)
     * and not yet ended. A hold has no fence (decision 0037), and an operator's write names none, so
     * that the operator policy need not let operators write {@code leaseFence}.
     */
    static final String HOLD_OURS = LEASE_OURS;

    /** Release: only the owner token gives a lease back; an expired one of ours may be cleared too. */
    static final String LEASE_OWNED = "#leaseOwner = :token";

    /**
     * Clearing a dead run's slot of a group of capacity N (decision 0051): still that run's acquisition
     * (its token: a newer owner's lease is never touched), and ended on the caller's clock (a lease renewed
     * since is live and stays). With RELEASE, so the dead run can neither renew nor commit there.
     */
    static final String LEASE_LAPSED = "#leaseOwner = :token AND #leaseUntil <= :now";

    /** Lifting maintenance: only a maintenance hold, never a job's lease. */
    static final String MAINTENANCE_HELD = "attribute_exists(#leaseOwner) AND #leaseKind = :maintenance";

    /**
     * A maintenance hold this operator set: {@code maintenance off} without --force checks the setter in
     * the same write that lifts, so a hold someone else set after the check is never lifted.
     */
    static final String MAINTENANCE_HELD_BY = MAINTENANCE_HELD + " AND #maintBy = :setBy";

    /** The slot still carries our claim of this occurrence, in flight. */
    static final String SLOT_OURS = "#occ = :t AND #occOwner = :token AND #occStatus = :running";

    /** The slot still carries the dead run we are recording as abandoned (not a newer claim). */
    static final String SLOT_STILL_DEAD = "#occ = :t AND #occOwner = :deadOwner AND #occStatus = :running";

    /** No run item yet. */
    static final String RUN_ABSENT = "attribute_not_exists(#pk)";

    /**
     * The run item is as we read it under the lease (optimistic check against stale writers). A skip an
     * operator planned since the read has the same status and attempts as a recorded refusal (SKIPPED,
     * 0), so its mark {@code skipBy} is checked too: the claim never replaces an operator's skip.
     */
    static final String RUN_UNCHANGED =
            "#status = :seenStatus AND #attempts = :seenAttempts AND attribute_not_exists(#skipBy)";

    /** The in-flight run item still belongs to the dead owner we are recording as abandoned. */
    static final String RUN_STILL_DEAD = "#owner = :deadOwner AND #status = :running";

    /**
     * A skip (or abandonment of a slot run) may replace nothing but a skip, and never an operator's skip
     * (decision 0033): a refusal recorded on its occurrence (say schedules off) must not erase who skipped
     * it and why.
     */
    static final String ONLY_SKIP_STORED = RUN_ABSENT + " OR (#status = :skipped AND attribute_not_exists(#skipBy))";

    /**
     * {@code punctual skip}, the lock item's half (decision 0033): ahead of every claim of the occurrence.
     * (1) Not in flight on the slot: a fresh claim of it came first (its finished states are refused by
     * the run item's half, written in the same transaction). (2) Fewer than {@code :maxSkips} marks: every
     * mark is carried by each claim's write of this item. The cursor is not named (decision 0037): the
     * operator's write may name only what the operator policy lets it write, and the cursor is not among
     * that; an occurrence at or behind it is refused from the ledger's read before this write.
     */
    static final String SKIP_AHEAD = "(attribute_not_exists(#occ) OR #occ <> :t OR #occStatus <> :running)"
            + " AND (attribute_not_exists(#skips) OR size(#skips) < :maxSkips)";

    /**
     * {@code punctual skip}, the run item's half: no run, no success, no operator's skip yet (a refusal
     * recorded for the occurrence may be replaced: the occurrence is still claimable after one).
     */
    static final String SKIP_MAY_PLAN = ONLY_SKIP_STORED;

    /** The mark every fresh claim checks (NOT_SKIPPED). */
    static final String SKIP_MARK = "ADD #skips :tSet";

    /**
     * {@code punctual unskip} and a delivery acting on a skip: the operator's skip is still only planned
     * (no delivery met it). An acted skip is history; unskip never removes it.
     */
    static final String SKIP_STILL_PLANNED = "attribute_exists(#skipBy) AND attribute_not_exists(#skipActedAt)";

    /** Unskip's half on the lock item: the mark goes with the run item, in one transaction. */
    static final String SKIP_UNMARK = "DELETE #skips :tSet";

    /**
     * Marks at or behind the cursor refuse nothing (a fresh claim needs the occurrence after the cursor,
     * which only moves forward), so {@code punctual skip} drops them first: the set then holds only
     * skips ahead, and its size limit counts only those. No condition: the marks dropped are those at or
     * behind the cursor the skip read, and the cursor only moves forward; the operator's write names no
     * cursor (decision 0037).
     */
    static final String SKIPS_PRUNE = "DELETE #skips :passed";

    /**
     * A fenced failure is stored unless it would hide a success, a newer owner's live run, or a newer
     * owner's finished record (a higher fence: it took the group after us, so its record is the truth);
     * our own earlier record of the occurrence may be replaced.
     */
    static final String FENCED_MAY_RECORD =
            RUN_ABSENT + " OR #owner = :token OR (#status <> :succeeded AND #status <> :running AND #fence <= :fence)";

    /**
     * An abandoned slot run may replace a skip, or the dead owner's own record of it (a fenced failure
     * whose slot update never landed), so a dead run can always be closed and the job does not wedge.
     */
    static final String SLOT_RUN_REPLACEABLE = ONLY_SKIP_STORED + " OR #owner = :deadOwner";

    /**
     * An entity's own lease (decision 0029, 5), the condition on the job's group item in the claim's
     * transaction (of NOTE_ENTITY_LEASE): no maintenance hold in force there. A job's lease on the group does not refuse it
     * (entities and the job's other runs have their own leases); a released or lapsed hold is no hold
     * (released: no end; lapsed: its end is past on the caller's clock, as for every lease).
     */
    static final String NO_HOLD_IN_FORCE = "(attribute_not_exists(#leaseKind) OR #leaseKind <> :maintenance"
            + " OR attribute_not_exists(#leaseUntil) OR #leaseUntil <= :now)";

    /**
     * The condition on the job's group item in an entity lease's transaction: no hold in force, and no
     * pause of the whole per-entity job (NOT_PAUSED, decision 0040): pausing the job refuses every entity.
     */
    static final String GROUP_LETS_ENTITY = NO_HOLD_IN_FORCE + " AND " + NOT_PAUSED;

    /**
     * The update of the job's group item in an entity lease's transaction, under {@link #NO_HOLD_IN_FORCE}
     * (decision 0036, addendum): it notes when the last entity lease was taken, so a hold taken later reads,
     * in its own write's answer, whether an entity run started before it can still hold its lease, and waits
     * only then. It names no lease attribute, so it never touches a hold or a job's lease on the item; it
     * replaces the ConditionCheck the transaction sent before, at no extra request and the same write units
     * (a ConditionCheck is billed as a transactional write of the item). The last writer's time bounds the
     * earlier ones: every earlier lease was taken before it, each within the skew tolerance of its clock.
     */
    static final String NOTE_ENTITY_LEASE = "SET #entityLeasedAt = :now";

    /**
     * An entity lease's fence is chosen by the claimant (a transaction returns no item, so a fence the
     * store computed could not be known without another request): the claimant's clock in epoch millis,
     * or one more than a stored fence it met. Strictly above the stored one, so fences still only grow.
     */
    static final String FENCE_BELOW = "(attribute_not_exists(#leaseFence) OR #leaseFence < :fence)";

    /**
     * The entity's in-order occurrence: its cursor at the occurrence before this one. The transaction
     * returns no item, so the claim learns the cursor from this clause; any other cursor (none yet, or
     * occurrences to catch up) is met by the general path, which reads it.
     */
    static final String CURSOR_AT_EXPECTED = "#cursor = :expectedCursor";

    /**
     * The entity was not deleted (decision 0029, 8): its delete writes {@code deletedAt} on this item
     * before it deletes the schedule, so a delivery still in flight is refused in the very write that
     * would claim it, at no extra request. A job's own item never carries it.
     */
    static final String NOT_DELETED = "attribute_not_exists(#deletedAt)";

    /**
     * An entity's lease alone (the general path): not deleted, free, the chosen fence above the stored
     * one, and the entity not paused (NOT_PAUSED, decision 0040).
     */
    static final String TAKE_ENTITY_LEASE_CONDITION =
            NOT_DELETED + " AND " + LEASE_FREE + " AND " + FENCE_BELOW + " AND " + NOT_PAUSED;

    /** An entity's one-request claim: free lease, fence above, fresh occurrence, cursor where expected. */
    static final String TAKE_ENTITY_LEASE_AND_CLAIM_CONDITION =
            TAKE_ENTITY_LEASE_CONDITION + " AND " + OCCURRENCE_FRESH + " AND " + CURSOR_AT_EXPECTED;

    /**
     * The slot claim under a shared group's lease: the entity not deleted (checked here, in the write
     * the shared path already sends per occurrence, so the tombstone holds there too at no extra
     * request; a job's slot never carries one), the occurrence fresh, and the member job not paused
     * (NOT_PAUSED, decision 0040): a shared group's member is paused on its own item, which only this
     * write of a shared-group claim touches; its ALL_OLD item tells the claim why.
     */
    static final String CLAIM_FRESH_CONDITION = NOT_DELETED + " AND " + OCCURRENCE_FRESH + " AND " + NOT_PAUSED;

    /**
     * An entity's delete: only where no tombstone stands, so a second delete keeps the first's time and
     * name and is told so (the refusal's ALL_OLD item shows it): deleting twice is idempotent.
     */
    static final String TOMBSTONE_ABSENT = NOT_DELETED;

    /**
     * A put of a deleted entity: only where a tombstone stands. Without it the REMOVE would create a
     * bare lock item for every entity put for the first time.
     */
    static final String TOMBSTONE_PRESENT = "attribute_exists(#deletedAt)";

    /**
     * A long occurrence's chunk record (decision 0039), its first attempt: no record of the chunk yet. Two
     * invocations of one chunk (a redelivery) that both read none race here, and exactly one records.
     */
    static final String CHUNK_ABSENT = "attribute_not_exists(#pk)";

    /**
     * A later attempt of a chunk: (1) the attempts the writer read, so an attempt recorded between its read
     * and its write (a twin's) is never overwritten nor counted twice; (2) not succeeded, so a success is
     * never changed whatever the count says (a success is final: decision 0039, 3).
     */
    static final String CHUNK_AS_SEEN = "#attempts = :seenAttempts AND #status <> :succeeded";

    /**
     * Every chunk record of one occurrence: its partition ({@code chunk#<ledgerId>#<occurrence>}) holds
     * nothing else, so the key condition alone lists them, in sort key (chunk key) order.
     */
    static final String CHUNKS_OF_OCCURRENCE = "#pk = :pk";

    /**
     * A job's (or an entity's) execution records: their partition ({@code long#<ledgerId>}) holds nothing
     * else, so the key condition alone lists them, in occurrence order (read newest first for status).
     */
    static final String EXECUTIONS_OF_SUBJECT = "#pk = :pk";

    /**
     * A job's (or an entity's) run items for its history, newest first: the partition {@code run#<ledgerId>}
     * holds only its run and missed-range items (an entity's is a partition of its own, {@code
     * run#<job>:<entity>}, never a prefix of its job's), in occurrence order; read backwards.
     */
    static final String RUNS_OF_SUBJECT = "#pk = :pk";

    /**
     * As {@link #RUNS_OF_SUBJECT}, from an occurrence on: {@code :since} is the run sort key of the oldest
     * occurrence wanted (fixed-width UTC, so string order is time order). A missed range starting before it
     * is left out even when it ends after it, as a run item of that occurrence would be.
     */
    static final String RUNS_OF_SUBJECT_SINCE = "#pk = :pk AND #sk >= :since";

    /**
     * {@code punctual pause} (decision 0040): no other pause holds (none, or one ended on the operator's
     * clock), so a second operator's pause never rewrites the first's who and why; it is told whose holds.
     * A pause replacing an ended one replaces its span too.
     */
    static final String PAUSE_MAY_SET = "attribute_not_exists(#pausedFrom) OR #pausedTo <= :now";

    /**
     * {@code punctual resume} (decision 0040): the item still carries the pause the operator read (its
     * start names it), so a resume never lifts a pause set after its read by someone else.
     */
    static final String PAUSE_AS_READ = "#pausedFrom = :pausedFrom";

    // ---- Updates -------------------------------------------------------------------------------------

    /**
     * Hold the lease for maintenance: new owner token, end, start, holder, kind. The fence stays as it is
     * (decision 0037): a hold writes nothing a fence guards, and an operator's write must be unable to
     * name the fence, which only grows.
     */
    static final String HOLD_LEASE_SET =
            "#leaseOwner = :token, #leaseUntil = :until, #leaseAcquiredAt = :now, #leaseHolder = :holder,"
                    + " #leaseKind = :kind";

    /** Take the lease: new owner token, fence + 1 in the same write, end at the invocation deadline. */
    static final String LEASE_SET = HOLD_LEASE_SET + ", #leaseFence = if_not_exists(#leaseFence, :zero) + :one";

    /** Claim the slot for a fresh occurrence (attempt 1). */
    static final String SLOT_SET = "#occ = :t, #occStatus = :running, #occAttempts = :one, #occOwner = :token,"
            + " #occTrigger = :trigger, #occSchedulerAttempt = :schedulerAttempt, #occStartedAt = :now";

    /**
     * What describes a maintenance hold: every write that gives the lease to a job or an entity, or
     * releases it, removes all of it, so no later reader meets an old hold's reason or command.
     */
    static final String MAINT_REMOVES = "#maintReason, #maintBy, #maintCommand";

    /** A job's lease clears any leftover maintenance description. */
    static final String TAKE_JOB_LEASE = "SET " + LEASE_SET + " REMOVE " + MAINT_REMOVES;

    /**
     * A hold switched on by hand: it replaces any hold it may (its own, or forced), so it removes the
     * command a replaced {@code maintenance hold} named — that command no longer holds the stage.
     */
    static final String TAKE_MAINTENANCE_LEASE =
            "SET " + HOLD_LEASE_SET + ", #maintReason = :reason, #maintBy = :setBy REMOVE #maintCommand";

    /** A hold for as long as a command runs (decision 0036): the hand-set hold's fields and the command. */
    static final String TAKE_COMMAND_HOLD =
            "SET " + HOLD_LEASE_SET + ", #maintReason = :reason, #maintBy = :setBy, #maintCommand = :command";

    /** The happy path's one write; the slot's fence is computed from the same old fence as the lease's. */
    static final String TAKE_LEASE_AND_CLAIM = "SET " + LEASE_SET + ", " + SLOT_SET
            + ", #occFence = if_not_exists(#leaseFence, :zero) + :one REMOVE " + MAINT_REMOVES;

    /** An entity's lease: as LEASE_SET, with the claimant's fence (FENCE_BELOW). */
    static final String ENTITY_LEASE_SET = "#leaseOwner = :token, #leaseFence = :fence,"
            + " #leaseUntil = :until, #leaseAcquiredAt = :now, #leaseHolder = :holder, #leaseKind = :kind";

    static final String TAKE_ENTITY_LEASE = "SET " + ENTITY_LEASE_SET + " REMOVE " + MAINT_REMOVES;

    /** An entity's one-request claim: its lease and its slot, stamped with the same chosen fence. */
    static final String TAKE_ENTITY_LEASE_AND_CLAIM =
            "SET " + ENTITY_LEASE_SET + ", " + SLOT_SET + ", #occFence = :fence REMOVE " + MAINT_REMOVES;

    /** Claim the slot under a shared group's lease, stamping that lease's fence. */
    static final String CLAIM_FRESH = "SET " + SLOT_SET + ", #occFence = :fence";

    /**
     * The tombstone: when and by whom. Lease, slot and cursor stay, so a run in flight still completes
     * (its fenced commit does not look at the tombstone) and a put again resumes at the cursor.
     */
    static final String TOMBSTONE_SET = "SET #deletedAt = :deletedAt, #deletedBy = :deletedBy";

    /** A put again: the tombstone goes, nothing else changes. */
    static final String TOMBSTONE_CLEAR = "REMOVE #deletedAt, #deletedBy";

    /**
     * An entity's write lock (issue 40): a put and a delete of one entity hold it from their ledger write to
     * their schedule write, so they never interleave. Taken where no writer stands, where its term has
     * passed, or by its own owner again (a resend after an unknown outcome).
     */
    static final String ENTITY_WRITE_TAKE = "SET #entityWriter = :owner, #entityWriterUntil = :until";

    static final String ENTITY_WRITE_MAY_TAKE =
            "attribute_not_exists(#entityWriter) OR #entityWriterUntil < :now OR #entityWriter = :owner";

    /** Renewed and given back by its owner only. */
    static final String ENTITY_WRITE_RENEW = "SET #entityWriterUntil = :until";

    static final String ENTITY_WRITE_RELEASE = "REMOVE #entityWriter, #entityWriterUntil";

    static final String ENTITY_WRITE_OURS = "#entityWriter = :owner";

    /** The pause's mark: who, why, since, whether the span is caught up; until when (PAUSE_UNTIL) or not. */
    static final String PAUSE_MARK =
            "#pausedFrom = :pausedFrom, #pausedBy = :pausedBy, #pausedWhy = :pausedWhy, #pauseCatchUp = :catchUp";

    /** A pause until resumed: no end, and any end an earlier (ended) pause left goes. */
    static final String PAUSE_SET = "SET " + PAUSE_MARK + " REMOVE #pausedTo";

    /** A pause until a time ({@code --until}). */
    static final String PAUSE_UNTIL = "SET " + PAUSE_MARK + ", #pausedTo = :pausedTo";

    /** {@code resume --catch-up}: the mark goes; the next delivery catches up as the job's policy allows. */
    static final String RESUME_CATCH_UP = "REMOVE #pausedFrom, #pausedTo, #pausedBy, #pausedWhy, #pauseCatchUp";

    /** {@code resume --skip-paused}: the span ends and is not caught up; its occurrences stay refused. */
    static final String RESUME_SKIP_PAUSED = "SET #pausedTo = :pausedTo, #pauseCatchUp = :catchUp";

    /** Heartbeat: only the end moves; owner, fence and start stay. */
    static final String EXTEND = "SET #leaseUntil = :until";

    /** Release keeps the fence (it must keep growing) and the last holder (history). */
    static final String RELEASE_REMOVES = "#leaseOwner, #leaseUntil, " + MAINT_REMOVES;

    static final String RELEASE = "REMOVE " + RELEASE_REMOVES;

    static final String SLOT_FINISHED = "#occStatus = :final";

    static final String CURSOR_ADVANCE = "#cursor = :t";

    /**
     * A success's completion notes its time on the job's item (decision 0042), in the transaction's update
     * that item already gets: no extra request. No condition of its own: the completion's lease condition
     * fences it, and only one holder of the job's group completes at a time, so the time only grows (up to
     * the completing functions' clock skew). {@code :now} is the completion's clock, the one the lease
     * condition compares.
     */
    static final String LAST_SUCCESS = "#lastSuccessAt = :now";

    static final String SLOT_ABANDONED = "SET #occStatus = :abandoned";

    /**
     * The due watch's note on an entity's item, in its completion (decision 0031): (1) the entity's next
     * occurrence, the due index's sort key, so a check reads an exact time range; (2) its bucket, the
     * index's partition key, so the item moves out of the bucket its delivered occurrence was listed in.
     * No condition of its own: the completion's lease condition fences it, and only the newest
     * occurrence's completion sends it.
     */
    static final String DUE_NOTE = "#nextDue = :nextDue, #dueBucket = :dueBucket";

    /**
     * An entity with no next occurrence (a one-time {@code at()} done) leaves the index: without its
     * partition key the sparse index holds no entry for the item.
     */
    static final String DUE_CLEARED = "#nextDue, #dueBucket";

    /**
     * A put's note (decision 0031), with no condition: the put has just written the entity's schedule, so
     * its next occurrence after now is what the watch should expect, whatever the item held. On an entity
     * never delivered it creates the item with the note alone, which a first claim reads as free.
     */
    static final String NOTE_DUE = "SET " + DUE_NOTE;

    /**
     * A job's completed one-time entities in one shard (decision 0047), for {@code schedules list}: the
     * partition {@code done#<job>#<NN>} holds only those notes, by entity id; {@code :after} (the last
     * entity of the previous page) continues a page where it stopped. The note itself is a Put in the
     * completion's transaction with no condition of its own: the completion's lease condition fences it.
     */
    static final String COMPLETED_IN_SHARD = "#pk = :pk";

    /** As {@link #COMPLETED_IN_SHARD}, after the entity the previous page ended with. */
    static final String COMPLETED_IN_SHARD_AFTER = "#pk = :pk AND #sk > :after";

    /** A put of an entity with no occurrence left (an {@code at()} already past): out of the index. */
    static final String CLEAR_DUE = "REMOVE " + DUE_CLEARED;

    // ---- Approvals (decision 0041): appended to the claims' conditions, each its own constant ---------

    /**
     * An operator approved this occurrence: {@code punctual approve} adds it to the lock item's
     * {@code approvals} number set in the same transaction that plans its run item. Only a claim of a job
     * that needs approval carries it, appended to the write it already sends (the own group's one write,
     * the slot claim under a shared lease, an entity's one-request claim): a job that needs none sends
     * exactly what it sent before. {@code contains} on an absent set is false, so no approval, no claim.
     */
    static final String APPROVED = "contains(#approvals, :t)";

    /** The claim that required APPROVED removes the mark in the same write: an approval is used once. */
    static final String APPROVAL_USED = "DELETE #approvals :tSet";

    /** The own group's one write, of a job that needs approval. */
    static final String TAKE_LEASE_AND_CLAIM_APPROVED_CONDITION = TAKE_LEASE_AND_CLAIM_CONDITION + " AND " + APPROVED;

    static final String TAKE_LEASE_AND_CLAIM_APPROVED = TAKE_LEASE_AND_CLAIM + " " + APPROVAL_USED;

    /** The slot claim under a shared group's lease, of a job that needs approval. */
    static final String CLAIM_FRESH_APPROVED_CONDITION = CLAIM_FRESH_CONDITION + " AND " + APPROVED;

    static final String CLAIM_FRESH_APPROVED = CLAIM_FRESH + " " + APPROVAL_USED;

    /** An entity's one-request claim, of a job that needs approval. */
    static final String TAKE_ENTITY_LEASE_AND_CLAIM_APPROVED_CONDITION =
            TAKE_ENTITY_LEASE_AND_CLAIM_CONDITION + " AND " + APPROVED;

    static final String TAKE_ENTITY_LEASE_AND_CLAIM_APPROVED = TAKE_ENTITY_LEASE_AND_CLAIM + " " + APPROVAL_USED;

    /** No approval planned on the run item: {@code approvedBy} marks one until a claim's record replaces it. */
    static final String APPROVAL_NOT_PLANNED = "attribute_not_exists(#approvedBy)";

    /**
     * Recording a skip (a refusal: UNAPPROVED, maintenance, busy, ...): as ONLY_SKIP_STORED, and never over an
     * approval not yet used. A delivery that found no approval and an approval written before its skip lands:
     * the skip is refused, the runtime claims again and runs it. A refused delivery of an approved occurrence
     * (maintenance, say) leaves the approval for the claim that runs it.
     */
    static final String SKIP_MAY_RECORD = "(" + ONLY_SKIP_STORED + ") AND " + APPROVAL_NOT_PLANNED;

    /**
     * {@code punctual approve}, the lock item's half: (1) not in flight on the slot (a fresh claim of it came
     * first; its finished states are refused by the run item's half); (2) fewer than {@code :maxApprovals}
     * marks (each rides on every write of the item). No cursor (decision 0037): an occurrence behind it with
     * nothing recorded is refused from the ledger's read.
     */
    static final String APPROVAL_AHEAD = "(attribute_not_exists(#occ) OR #occ <> :t OR #occStatus <> :running)"
            + " AND (attribute_not_exists(#approvals) OR size(#approvals) < :maxApprovals)";

    /** The mark a fresh claim of a job needing approval requires (APPROVED) and removes (APPROVAL_USED). */
    static final String APPROVAL_MARK = "ADD #approvals :tSet";

    /**
     * {@code punctual approve}, the run item's half over a recorded refusal (an UNAPPROVED skip, say): exactly
     * the refusal the ledger read (its reason), no operator's skip, no approval yet. Where nothing was read,
     * RUN_ABSENT: a delivery recording its skip between the read and this write refuses the approval, which
     * reads again and says so.
     */
    static final String APPROVAL_OVER_REFUSAL = "#status = :skipped AND attribute_not_exists(#skipBy) AND "
            + APPROVAL_NOT_PLANNED + " AND #reason = :seenReason";

    /** Marks at or behind the cursor: used, or for occurrences no fresh claim meets; no condition, as SKIPS_PRUNE. */
    static final String APPROVALS_PRUNE = "DELETE #approvals :passed";
}
