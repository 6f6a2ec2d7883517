package dev.punctual.ledger.testkit;

import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.CompletedEntity;
import dev.punctual.ledger.DueIndex;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LeaseKind;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.spi.ChunkPut;
import dev.punctual.ledger.spi.Commit;
import dev.punctual.ledger.spi.CompletionPlan;
import dev.punctual.ledger.spi.EntityGrant;
import dev.punctual.ledger.spi.LeaseGrant;
import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.spi.SlotClaim;
import dev.punctual.ledger.spi.Write;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The ledger's store in a map, for fast tests. Every method mirrors one DynamoDB request of
 * {@code DynamoDbLedgerStore}: the same condition, checked and applied atomically under one monitor.
 */
public final class InMemoryLedgerStore implements LedgerStore {

    private final Map<String, LockState> locks = new HashMap<>();
    private final Map<RunKey, RunRecord> runs = new HashMap<>();
    private final Map<RunKey, RunRecord> missed = new HashMap<>();
    /** The due watch's notes (decision 0031): an entity's ledger id to its next occurrence, DUE_NOTE. */
    private final Map<String, Instant> due = new HashMap<>();

    /**
     * The completed one-time entities' notes (decision 0047), as the {@code done#<job>#<shard>} items: by
     * job and shard, then entity id, as DynamoDB sorts them.
     */
    private final Map<String, TreeMap<String, CompletedEntity>> completed = new HashMap<>();

    /** Long occurrences' execution records (decision 0039), as the {@code long#} items. */
    private final Map<RunKey, ExecutionRecord> executions = new HashMap<>();

    /** Long occurrences' chunk records: one {@code chunk#} partition per occurrence, in sort key order. */
    private final Map<RunKey, TreeMap<String, ChunkRecord>> chunks = new HashMap<>();

    /** Each entity's write lock (issue 40): its owner and until, beside the lock item as DynamoDB keeps it. */
    private final Map<String, Map.Entry<String, Instant>> entityWriters = new HashMap<>();

    @Override
    public synchronized Write<LockState> takeLeaseAndClaimFresh(LeaseGrant grant, SlotClaim claim) {
        LockState old = readLock(grant.group());
        if (old.leaseHeldAt(grant.now())
                || !old.freshFor(claim.key().scheduledTime())
                || old.pausedFor(claim.key().scheduledTime(), grant.now())
                || !approved(old, claim)) {
            return new Write.Rejected<>(old);
        }
        LockState leased = LockStates.withLease(old, grant);
        return applied(approvalUsed(LockStates.withSlot(leased, claim, leased.fence()), claim));
    }

    /** MAINTENANCE_MAY_TAKE: the same operator's hold; MAINTENANCE_MAY_FORCE: anyone's. Never a job's. */
    @Override
    public synchronized Write<LockState> takeLease(LeaseGrant grant) {
        LockState old = readLock(grant.group());
        boolean replaces = grant.kind() == LeaseKind.MAINTENANCE
                && old.leaseKind() == LeaseKind.MAINTENANCE
                && (grant.force() || sameOperator(old, grant));
        if (old.leaseHeldAt(grant.now()) && !replaces) {
            return new Write.Rejected<>(old);
        }
        if (grant.kind() != LeaseKind.MAINTENANCE && old.pausedFor(grant.occurrence(), grant.now())) {
            return new Write.Rejected<>(old); // NOT_PAUSED: a job's lease only; maintenance is never paused
        }
        // A hold leaves the fence as it is (HOLD_LEASE_SET, decision 0037); a job's lease takes fence + 1.
        return applied(grant.hold() == null ? LockStates.withLease(old, grant) : LockStates.withHold(old, grant));
    }

    /**
     * NO_HOLD_IN_FORCE on the job's group, then TAKE_ENTITY_LEASE(_AND_CLAIM)_CONDITION (no tombstone
     * first) on the entity's item, under one monitor as DynamoDB applies the transaction's two items together;
     * applied, NOTE_ENTITY_LEASE on the group.
     */
    @Override
    public synchronized Write<Optional<LockState>> takeEntityLease(EntityGrant grant) {
        LeaseGrant lease = grant.lease();
        LockState group = readLock(grant.holdGroup());
        if (group.underMaintenanceAt(lease.now()) || group.pausedFor(lease.occurrence(), lease.now())) {
            return new Write.Rejected<>(Optional.of(group));
        }
        LockState old = readLock(lease.group());
        if (old.deleted()) {
            return new Write.Rejected<>(Optional.of(old)); // NOT_DELETED
        }
        boolean fenceAbove = old.fence() < grant.fence();
        boolean claimable = grant.claim()
                .map(c -> old.freshFor(c.key().scheduledTime())
                        && approved(old, c)
                        && grant.expectedCursor().get().equals(old.cursor()))
                .orElse(true);
        if (old.leaseHeldAt(lease.now())
                || !fenceAbove
                || !claimable
                || old.pausedFor(lease.occurrence(), lease.now())) {
            return new Write.Rejected<>(Optional.of(old));
        }
        LockState leased = LockStates.withEntityLease(old, lease, grant.fence());
        applied(grant.claim()
                .map(c -> approvalUsed(LockStates.withSlot(leased, c, grant.fence()), c))
                .orElse(leased));
        // NOTE_ENTITY_LEASE on the job's group, in the same transaction: the read of it above is current.
        applied(group.withEntityLeasedAt(lease.now()));
        return new Write.Applied<>(Optional.empty());
    }

    /** TOMBSTONE_ABSENT, then TOMBSTONE_SET: the first delete's mark stays. */
    @Override
    public synchronized Write<LockState> tombstoneEntity(String ledgerId, EntityTombstone tombstone) {
        LockState old = readLock(ledgerId);
        if (old.deleted()) {
            return new Write.Rejected<>(old);
        }
        return applied(old.withTombstone(tombstone));
    }

    /** NOTE_DUE or CLEAR_DUE, unconditional: the note a put leaves for the due watch. */
    @Override
    public synchronized void noteDue(String ledgerId, NextDue next) {
        next.at().ifPresentOrElse(at -> due.put(ledgerId, at), () -> due.remove(ledgerId));
    }

    /** ENTITY_WRITE_TAKE: no writer, or its until before now, or the owner's own. */
    @Override
    public synchronized boolean takeEntityWrite(String ledgerId, String owner, Instant now, Instant until) {
        Map.Entry<String, Instant> writer = entityWriters.get(ledgerId);
        if (writer != null
                && writer.getValue().compareTo(now) >= 0
                && !writer.getKey().equals(owner)) {
            return false;
        }
        entityWriters.put(ledgerId, Map.entry(owner, until));
        return true;
    }

    /** ENTITY_WRITE_RENEW: the owner's own. */
    @Override
    public synchronized boolean renewEntityWrite(String ledgerId, String owner, Instant until) {
        Map.Entry<String, Instant> writer = entityWriters.get(ledgerId);
        if (writer == null || !writer.getKey().equals(owner)) {
            return false;
        }
        entityWriters.put(ledgerId, Map.entry(owner, until));
        return true;
    }

    /** ENTITY_WRITE_RELEASE: the owner's own. */
    @Override
    public synchronized boolean releaseEntityWrite(String ledgerId, String owner) {
        Map.Entry<String, Instant> writer = entityWriters.get(ledgerId);
        if (writer == null || !writer.getKey().equals(owner)) {
            return false;
        }
        entityWriters.remove(ledgerId);
        return true;
    }

    /** TOMBSTONE_PRESENT, then TOMBSTONE_CLEAR; an entity never tombstoned is not written. */
    @Override
    public synchronized boolean clearEntityTombstone(String ledgerId) {
        LockState old = readLock(ledgerId);
        if (!old.deleted()) {
            return false;
        }
        applied(old.withTombstone(null));
        return true;
    }

    /** CLAIM_FRESH_CONDITION: no entity tombstone, and a fresh occurrence. */
    @Override
    public synchronized Write<LockState> claimFresh(SlotClaim claim) {
        LockState old = readLock(claim.key().jobId());
        if (old.deleted()
                || !old.freshFor(claim.key().scheduledTime())
                || old.pausedFor(claim.key().scheduledTime(), claim.now())
                || !approved(old, claim)) {
            return new Write.Rejected<>(old);
        }
        return applied(approvalUsed(LockStates.withSlot(old, claim, claim.fence()), claim));
    }

    /** APPROVED, appended only to the claim of a job that needs approval (decision 0041). */
    private static boolean approved(LockState lock, SlotClaim claim) {
        return !claim.approvalRequired() || lock.approvalMarked(claim.key().scheduledTime());
    }

    /** APPROVAL_USED: the claim that required the mark removes it in the same write. */
    private static LockState approvalUsed(LockState lock, SlotClaim claim) {
        if (!claim.approvalRequired()) {
            return lock;
        }
        List<Instant> marks = new ArrayList<>(lock.approvals());
        marks.remove(claim.key().scheduledTime());
        return lock.withApprovals(marks);
    }

    /** PAUSE_MAY_SET (no other pause holds at {@code now}), then PAUSE_SET. */
    @Override
    public synchronized Write<LockState> pause(String id, PauseMark mark, Instant now) {
        LockState old = readLock(id);
        if (old.pause() != null && old.pause().holdsAt(now)) {
            return new Write.Rejected<>(old);
        }
        return applied(old.withPause(mark));
    }

    /** PAUSE_AS_READ, then RESUME_CATCH_UP (the mark goes) or RESUME_SKIP_PAUSED (the span ends, kept). */
    @Override
    public synchronized boolean resume(String id, PauseMark seen, Optional<PauseMark> after) {
        LockState old = readLock(id);
        if (old.pause() == null || !old.pause().from().equals(seen.from())) {
            return false;
        }
        applied(old.withPause(after.orElse(null)));
        return true;
    }

    /** PAUSE_MAY_SET on slot 0, then PAUSE_SET on every slot, atomically (decision 0051). */
    @Override
    public synchronized boolean pauseSlots(List<String> ids, PauseMark mark, Instant now) {
        LockState first = readLock(ids.get(0));
        if (first.pause() != null && first.pause().holdsAt(now)) {
            return false;
        }
        ids.forEach(id -> applied(readLock(id).withPause(mark)));
        return true;
    }

    /** PAUSE_AS_READ on slot 0, then the resume on every slot, atomically (decision 0051). */
    @Override
    public synchronized boolean resumeSlots(List<String> ids, PauseMark seen, Optional<PauseMark> after) {
        LockState first = readLock(ids.get(0));
        if (first.pause() == null || !first.pause().from().equals(seen.from())) {
            return false;
        }
        ids.forEach(id -> applied(readLock(id).withPause(after.orElse(null))));
        return true;
    }

    @Override
    public synchronized Write<Optional<RunRecord>> claimRun(RunRecord running, Optional<RunRecord> seen) {
        Optional<RunRecord> current = readRun(running.key());
        if (!unchanged(current, seen)) {
            return new Write.Rejected<>(current);
        }
        runs.put(running.key(), running);
        return new Write.Applied<>(Optional.of(running));
    }

    @Override
    public synchronized boolean abandonSlot(String jobId, Slot dead, RunRecord abandoned) {
        LockState lock = readLock(jobId);
        Optional<RunRecord> run = readRun(abandoned.key());
        boolean slotStillDead = lock.slot() != null && lock.slot().equals(dead);
        boolean runReplaceable = onlySkipStored(run)
                || run.map(r -> dead.ownerToken().equals(r.ownerToken())).orElse(false);
        if (!slotStillDead || !runReplaceable) {
            return false;
        }
        runs.put(abandoned.key(), abandoned);
        locks.put(jobId, LockStates.withSlotStatus(lock, RunStatus.ABANDONED));
        return true;
    }

    @Override
    public synchronized boolean abandonRun(RunRecord dead, RunRecord abandoned) {
        Optional<RunRecord> run = readRun(dead.key());
        boolean stillDead = run.map(
                        r -> r.status() == RunStatus.RUNNING && r.ownerToken().equals(dead.ownerToken()))
                .orElse(false);
        if (stillDead) {
            runs.put(abandoned.key(), abandoned);
        }
        return stillDead;
    }

    @Override
    public synchronized Commit commit(CompletionPlan plan) {
        LockState group = readLock(plan.lease().group());
        if (!plan.lease().ownerToken().equals(group.leaseOwner()) || !group.leaseHeldAt(plan.now())) {
            return Commit.LEASE_LOST;
        }
        LockState job = plan.ownGroup() ? group : readLock(plan.jobId());
        Instant occurrence = plan.record().key().scheduledTime();
        if (plan.onSlot() && !LockStates.slotOwnedBy(job, plan.lease().ownerToken(), occurrence)) {
            return Commit.LEASE_LOST;
        }
        if (plan.advanceCursor() && job.cursor() != null && !job.cursor().isBefore(occurrence)) {
            return Commit.CURSOR_AHEAD;
        }
        runs.put(plan.record().key(), plan.record());
        LockState jobAfter = LockStates.completed(job, plan);
        locks.put(plan.jobId(), plan.ownGroup() ? LockStates.released(jobAfter) : jobAfter);
        if (!plan.ownGroup()) {
            locks.put(group.id(), LockStates.released(group));
        }
        plan.due()
                .ifPresent(next ->
                        next.at().ifPresentOrElse(at -> due.put(plan.jobId(), at), () -> due.remove(plan.jobId())));
        plan.completedNote()
                .ifPresent(note -> completed
                        .computeIfAbsent(note.job() + "#" + note.shard(), k -> new TreeMap<>())
                        .put(note.entity(), note));
        return Commit.COMMITTED;
    }

    @Override
    public synchronized boolean recordFenced(RunRecord failed, boolean onSlot) {
        Optional<RunRecord> current = readRun(failed.key());
        boolean keep = current.map(r -> !failed.ownerToken().equals(r.ownerToken())
                        && (r.status() == RunStatus.SUCCEEDED
                                || r.status() == RunStatus.RUNNING
                                || r.fence() > failed.fence()))
                .orElse(false);
        if (keep) {
            return false;
        }
        runs.put(failed.key(), failed);
        LockState job = readLock(failed.key().jobId());
        if (onSlot
                && LockStates.slotOwnedBy(job, failed.ownerToken(), failed.key().scheduledTime())) {
            locks.put(job.id(), LockStates.withSlotStatus(job, RunStatus.FAILED));
        }
        return true;
    }

    @Override
    public synchronized Write<Optional<RunRecord>> recordSkip(RunRecord skipped) {
        Optional<RunRecord> current = readRun(skipped.key());
        // SKIP_MAY_RECORD: also never over an approval not yet used (decision 0041).
        if (!onlySkipStored(current)
                || current.flatMap(RunRecord::plannedApproval).isPresent()) {
            return new Write.Rejected<>(current);
        }
        runs.put(skipped.key(), skipped);
        return new Write.Applied<>(Optional.of(skipped));
    }

    /** ONLY_SKIP_STORED: nothing, or a recorded refusal; never a run, a success or an operator's skip. */
    private static boolean onlySkipStored(Optional<RunRecord> current) {
        return current.map(r -> r.status() == RunStatus.SKIPPED && r.skip().isEmpty())
                .orElse(true);
    }

    /** SKIP_AHEAD and SKIP_MAY_PLAN, then SKIP_MARK and the planned run item, under one monitor. */
    @Override
    public synchronized boolean planSkip(RunRecord planned, int maxSkips) {
        RunKey key = planned.key();
        Instant t = key.scheduledTime();
        LockState lock = readLock(key.jobId());
        // SKIP_AHEAD names no cursor (decision 0037): the ledger refuses one behind it from its read.
        boolean inFlight = lock.slot() != null
                && lock.slot().occurrence().equals(t)
                && lock.slot().running();
        if (inFlight || lock.skips().size() >= maxSkips || !onlySkipStored(readRun(key))) {
            return false;
        }
        List<Instant> marks = new ArrayList<>(lock.skips());
        if (!marks.contains(t)) {
            marks.add(t);
            marks.sort(null);
        }
        locks.put(key.jobId(), lock.withSkips(marks));
        runs.put(key, planned);
        return true;
    }

    /**
     * APPROVAL_AHEAD and RUN_ABSENT or APPROVAL_OVER_REFUSAL, then APPROVAL_MARK and the planned run item,
     * under one monitor (decision 0041).
     */
    @Override
    public synchronized boolean planApproval(RunRecord planned, Optional<RunRecord> replacing, int maxApprovals) {
        RunKey key = planned.key();
        Instant t = key.scheduledTime();
        LockState lock = readLock(key.jobId());
        boolean inFlight = lock.slot() != null
                && lock.slot().occurrence().equals(t)
                && lock.slot().running();
        Optional<RunRecord> current = readRun(key);
        boolean runHalf = replacing.isEmpty()
                ? current.isEmpty()
                : current.filter(r -> r.status() == RunStatus.SKIPPED
                                && r.skip().isEmpty()
                                && r.plannedApproval().isEmpty()
                                && java.util.Objects.equals(
                                        r.reason() == null ? "" : r.reason(),
                                        replacing.get().reason() == null
                                                ? ""
                                                : replacing.get().reason()))
                        .isPresent();
        if (inFlight || lock.approvals().size() >= maxApprovals || !runHalf) {
            return false;
        }
        List<Instant> marks = new ArrayList<>(lock.approvals());
        if (!marks.contains(t)) {
            marks.add(t);
            marks.sort(null);
        }
        locks.put(key.jobId(), lock.withApprovals(marks));
        runs.put(key, planned);
        return true;
    }

    /** APPROVALS_PRUNE, with no condition. */
    @Override
    public synchronized boolean pruneApprovals(String lockId, List<Instant> passed) {
        LockState lock = readLock(lockId);
        List<Instant> marks = new ArrayList<>(lock.approvals());
        marks.removeAll(passed);
        locks.put(lockId, lock.withApprovals(marks));
        return true;
    }

    /** SKIP_STILL_PLANNED, then the run item's delete and SKIP_UNMARK. */
    @Override
    public synchronized boolean unskip(RunKey key) {
        if (!stillPlanned(readRun(key))) {
            return false;
        }
        runs.remove(key);
        LockState lock = readLock(key.jobId());
        List<Instant> marks = new ArrayList<>(lock.skips());
        marks.remove(key.scheduledTime());
        locks.put(key.jobId(), lock.withSkips(marks));
        return true;
    }

    @Override
    public synchronized boolean actOnSkip(RunRecord acted) {
        if (!stillPlanned(readRun(acted.key()))) {
            return false;
        }
        runs.put(acted.key(), acted);
        return true;
    }

    /** SKIPS_PRUNE, with no condition (decision 0037). */
    @Override
    public synchronized boolean pruneSkips(String lockId, List<Instant> passed) {
        LockState lock = readLock(lockId);
        List<Instant> marks = new ArrayList<>(lock.skips());
        marks.removeAll(passed);
        locks.put(lockId, lock.withSkips(marks));
        return true;
    }

    private static boolean stillPlanned(Optional<RunRecord> current) {
        return current.flatMap(RunRecord::skip).map(OperatorSkip::planned).orElse(false);
    }

    @Override
    public synchronized boolean recordMissed(RunRecord range) {
        missed.putIfAbsent(range.key(), range);
        LockState job = readLock(range.key().jobId());
        if (job.cursor() != null && !job.cursor().isBefore(range.missedUntil())) {
            return false;
        }
        locks.put(job.id(), LockStates.withCursor(job, range.missedUntil()));
        return true;
    }

    @Override
    public synchronized Write<LockState> extendLease(Lease lease, Instant until, Instant now) {
        LockState old = readLock(lease.group());
        // LEASE_OURS_AT_FENCE; a hold's renewal (no fence) HOLD_OURS.
        boolean atFence = !lease.fenced() || old.fence() == lease.fence();
        if (!lease.ownerToken().equals(old.leaseOwner()) || !old.leaseHeldAt(now) || !atFence) {
            return new Write.Rejected<>(old);
        }
        return applied(LockStates.withLeaseUntil(old, until));
    }

    @Override
    public synchronized boolean releaseLease(Lease lease, Instant now) {
        LockState old = readLock(lease.group());
        if (!lease.ownerToken().equals(old.leaseOwner())) {
            return false;
        }
        locks.put(old.id(), LockStates.released(old));
        return true;
    }

    /** LEASE_LAPSED: the owner's token, its end at or before {@code now}; then RELEASE. */
    @Override
    public synchronized boolean clearLapsedLease(String id, String owner, Instant now) {
        LockState old = readLock(id);
        if (!owner.equals(old.leaseOwner()) || old.leaseHeldAt(now)) {
            return false;
        }
        locks.put(old.id(), LockStates.released(old));
        return true;
    }

    @Override
    public synchronized boolean releaseMaintenance(String group, Instant now, Optional<String> setBy) {
        LockState old = readLock(group);
        if (old.leaseOwner() == null || old.leaseKind() != LeaseKind.MAINTENANCE) {
            return false;
        }
        if (setBy.isPresent() && !setBy.get().equals(old.maintenance().setBy())) {
            return false;
        }
        locks.put(group, LockStates.released(old));
        return true;
    }

    @Override
    public synchronized LockState readLock(String id) {
        return locks.getOrDefault(id, LockState.absent(id));
    }

    /** Every id in one read: nothing is ever left unread here. */
    @Override
    public synchronized dev.punctual.ledger.spi.PauseRead readPauses(List<String> ids) {
        if (ids.size() > PAUSES_PER_READ) {
            throw new IllegalArgumentException(ids.size() + " ids in one read; at most " + PAUSES_PER_READ);
        }
        Map<String, dev.punctual.ledger.PauseMark> marks = new java.util.HashMap<>();
        for (String id : ids) {
            dev.punctual.ledger.PauseMark mark = readLock(id).pause();
            if (mark != null) {
                marks.put(id, mark);
            }
        }
        return new dev.punctual.ledger.spi.PauseRead(marks, List.of());
    }

    @Override
    public synchronized Optional<RunRecord> readRun(RunKey key) {
        return Optional.ofNullable(runs.get(key));
    }

    @Override
    public synchronized Optional<RunRecord> readMissed(RunKey firstOfRange) {
        return Optional.ofNullable(missed.get(firstOfRange));
    }

    /**
     * As DynamoDB's Query of the partition {@code run#<ledgerId>} read backwards: newest first, and a missed
     * range (sort key {@code <first>#missed}) before a run item of the same occurrence.
     */
    @Override
    public synchronized List<RunRecord> readRecentRuns(String ledgerId, Optional<Instant> since, int atMost) {
        java.util.Comparator<Map.Entry<RunRecord, Boolean>> newestFirst = java.util.Comparator.comparing(
                        (Map.Entry<RunRecord, Boolean> e) -> e.getKey().key().scheduledTime())
                .thenComparing(Map.Entry::getValue)
                .reversed();
        return java.util.stream.Stream.concat(
                        runs.values().stream().map(r -> Map.entry(r, false)),
                        missed.values().stream().map(r -> Map.entry(r, true)))
                .filter(e -> e.getKey().key().jobId().equals(ledgerId))
                .filter(e -> since.map(s -> !e.getKey().key().scheduledTime().isBefore(s))
                        .orElse(true))
                .sorted(newestFirst)
                .limit(atMost)
                .map(Map.Entry::getKey)
                .toList();
    }

    /** The execution's Put, under the ConditionCheck LEASE_OURS_AT_FENCE; both under one monitor. */
    @Override
    public synchronized boolean noteExecution(Lease lease, Instant now, ExecutionRecord execution) {
        if (!leaseOursAtFence(lease, now)) {
            return false;
        }
        executions.put(execution.key(), execution);
        return true;
    }

    @Override
    public synchronized Optional<ExecutionRecord> readExecution(RunKey key) {
        return Optional.ofNullable(executions.get(key));
    }

    @Override
    public synchronized List<ExecutionRecord> readRecentExecutions(String ledgerId, int limit) {
        return executions.values().stream()
                .filter(e -> e.key().jobId().equals(ledgerId))
                .sorted(java.util.Comparator.comparing(
                                (ExecutionRecord e) -> e.key().scheduledTime())
                        .reversed())
                .limit(limit)
                .toList();
    }

    /**
     * CHUNK_ABSENT or CHUNK_AS_SEEN on the chunk, and LEASE_OURS_AT_FENCE on the group, as DynamoDB's one
     * transaction; the chunk's answer first, as the adapter reads the cancellation.
     */
    @Override
    public synchronized ChunkPut putChunk(Lease lease, Instant now, ChunkRecord record, Optional<ChunkRecord> seen) {
        Optional<ChunkRecord> stored = readChunk(record.key(), record.chunk());
        boolean asSeen = seen.isEmpty()
                ? stored.isEmpty()
                : stored.map(s -> s.attempts() == seen.get().attempts() && !s.succeeded())
                        .orElse(false);
        if (!asSeen) {
            return new ChunkPut.Changed(stored);
        }
        if (!leaseOursAtFence(lease, now)) {
            return new ChunkPut.Fenced();
        }
        chunks.computeIfAbsent(record.key(), k -> new TreeMap<>()).put(record.chunk(), record);
        return new ChunkPut.Applied();
    }

    @Override
    public synchronized Optional<ChunkRecord> readChunk(RunKey key, String chunk) {
        return Optional.ofNullable(chunks.getOrDefault(key, new TreeMap<>()).get(chunk));
    }

    /** In chunk key order, as DynamoDB sorts the partition's string sort keys (the keys are ASCII). */
    @Override
    public synchronized List<ChunkRecord> readChunks(RunKey key) {
        return List.copyOf(chunks.getOrDefault(key, new TreeMap<>()).values());
    }

    /** LEASE_OURS_AT_FENCE: our owner token, our fence, and an end after the caller's now. */
    private boolean leaseOursAtFence(Lease lease, Instant now) {
        LockState lock = readLock(lease.group());
        return lease.ownerToken().equals(lock.leaseOwner()) && lock.leaseHeldAt(now) && lock.fence() == lease.fence();
    }

    /** The shard's notes by entity id after {@code afterEntity}, as the Query on {@code done#<job>#<shard>}. */
    @Override
    public synchronized List<CompletedEntity> readCompleted(
            String job, int shard, Optional<String> afterEntity, int atMost) {
        TreeMap<String, CompletedEntity> notes = completed.getOrDefault(job + "#" + shard, new TreeMap<>());
        return (afterEntity.isPresent() ? notes.tailMap(afterEntity.get(), false) : notes)
                .values().stream().limit(atMost).toList();
    }

    /** The due index over this store's notes, as DynamoDB's index over the lock items' (DUE_NOTE, DUE_CLEARED). */
    public DueIndex dueIndex() {
        return (after, upTo) -> {
            synchronized (this) {
                List<DueIndex.Expected> expected = new ArrayList<>();
                due.forEach((id, at) -> {
                    if (at.isAfter(after) && !at.isAfter(upTo)) {
                        expected.add(new DueIndex.Expected(id, at));
                    }
                });
                return expected;
            }
        };
    }

    /** COMMAND_HOLD_MAY_TAKE: a command's hold replaces no hold, not even its own operator's. */
    private static boolean sameOperator(LockState old, LeaseGrant grant) {
        return old.maintenance() != null
                && grant.hold().command().isEmpty()
                && old.maintenance().setBy().equals(grant.hold().setBy());
    }

    private Write<LockState> applied(LockState state) {
        locks.put(state.id(), state);
        return new Write.Applied<>(state);
    }

    private static boolean unchanged(Optional<RunRecord> current, Optional<RunRecord> seen) {
        if (seen.isEmpty()) {
            return current.isEmpty();
        }
        // RUN_UNCHANGED: also never over an operator's skip planned since the read.
        return current.map(c -> c.status() == seen.get().status()
                        && c.attempts() == seen.get().attempts()
                        && c.skip().isEmpty())
                .orElse(false);
    }
}
