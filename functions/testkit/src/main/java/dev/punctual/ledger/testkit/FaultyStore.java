package dev.punctual.ledger.testkit;

import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.spi.ChunkPut;
import dev.punctual.ledger.spi.Commit;
import dev.punctual.ledger.spi.CompletionPlan;
import dev.punctual.ledger.spi.EntityGrant;
import dev.punctual.ledger.spi.LeaseGrant;
import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.spi.OutcomeUnknownException;
import dev.punctual.ledger.spi.SlotClaim;
import dev.punctual.ledger.spi.Write;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** The in-memory store with the same faults the SDK interceptor injects into DynamoDB requests. */
final class FaultyStore implements LedgerStore {

    private final LedgerStore store;
    private final FaultPlan plan;

    FaultyStore(LedgerStore store, FaultPlan plan) {
        this.store = store;
        this.plan = plan;
    }

    private <T> T inject(String what, Supplier<T> request) {
        Fault fault = plan.next();
        if (fault == Fault.TRANSACTION_CONFLICT && what.startsWith("read")) {
            fault = Fault.NONE; // DynamoDB reads return the committed item; only writes conflict
        }
        if (fault == Fault.BEFORE_SEND || fault == Fault.THROTTLE || fault == Fault.TRANSACTION_CONFLICT) {
            throw new OutcomeUnknownException("injected " + fault + " on " + what, null);
        }
        T result = request.get();
        if (fault == Fault.AFTER_APPLY) {
            throw new OutcomeUnknownException("injected " + fault + " on " + what, null);
        }
        return result;
    }

    @Override
    public Write<LockState> takeLeaseAndClaimFresh(LeaseGrant grant, SlotClaim claim) {
        return inject("takeLeaseAndClaimFresh", () -> store.takeLeaseAndClaimFresh(grant, claim));
    }

    @Override
    public Write<LockState> pause(String id, PauseMark mark, Instant now) {
        return inject("pause", () -> store.pause(id, mark, now));
    }

    @Override
    public boolean resume(String id, PauseMark seen, Optional<PauseMark> after) {
        return inject("resume", () -> store.resume(id, seen, after));
    }

    @Override
    public Write<LockState> takeLease(LeaseGrant grant) {
        return inject("takeLease", () -> store.takeLease(grant));
    }

    @Override
    public Write<Optional<LockState>> takeEntityLease(EntityGrant grant) {
        return inject("takeEntityLease", () -> store.takeEntityLease(grant));
    }

    @Override
    public Write<LockState> tombstoneEntity(String ledgerId, EntityTombstone tombstone) {
        return inject("tombstoneEntity", () -> store.tombstoneEntity(ledgerId, tombstone));
    }

    @Override
    public boolean takeEntityWrite(String ledgerId, String owner, java.time.Instant now, java.time.Instant until) {
        return inject("takeEntityWrite", () -> store.takeEntityWrite(ledgerId, owner, now, until));
    }

    @Override
    public boolean renewEntityWrite(String ledgerId, String owner, java.time.Instant until) {
        return inject("renewEntityWrite", () -> store.renewEntityWrite(ledgerId, owner, until));
    }

    @Override
    public boolean releaseEntityWrite(String ledgerId, String owner) {
        return inject("releaseEntityWrite", () -> store.releaseEntityWrite(ledgerId, owner));
    }

    @Override
    public boolean clearEntityTombstone(String ledgerId) {
        return inject("clearEntityTombstone", () -> store.clearEntityTombstone(ledgerId));
    }

    @Override
    public void noteDue(String ledgerId, dev.punctual.ledger.NextDue next) {
        inject("noteDue", () -> {
            store.noteDue(ledgerId, next);
            return true;
        });
    }

    @Override
    public Write<LockState> claimFresh(SlotClaim claim) {
        return inject("claimFresh", () -> store.claimFresh(claim));
    }

    @Override
    public Write<Optional<RunRecord>> claimRun(RunRecord running, Optional<RunRecord> seen) {
        return inject("claimRun", () -> store.claimRun(running, seen));
    }

    @Override
    public boolean abandonSlot(String jobId, Slot dead, RunRecord abandoned) {
        return inject("abandonSlot", () -> store.abandonSlot(jobId, dead, abandoned));
    }

    @Override
    public boolean abandonRun(RunRecord dead, RunRecord abandoned) {
        return inject("abandonRun", () -> store.abandonRun(dead, abandoned));
    }

    @Override
    public Commit commit(CompletionPlan completion) {
        return inject("commit", () -> store.commit(completion));
    }

    @Override
    public boolean recordFenced(RunRecord failed, boolean onSlot) {
        return inject("recordFenced", () -> store.recordFenced(failed, onSlot));
    }

    @Override
    public Write<Optional<RunRecord>> recordSkip(RunRecord skipped) {
        return inject("recordSkip", () -> store.recordSkip(skipped));
    }

    @Override
    public boolean recordMissed(RunRecord missed) {
        return inject("recordMissed", () -> store.recordMissed(missed));
    }

    @Override
    public Write<LockState> extendLease(Lease lease, Instant until, Instant now) {
        return inject("extendLease", () -> store.extendLease(lease, until, now));
    }

    @Override
    public boolean releaseLease(Lease lease, Instant now) {
        return inject("releaseLease", () -> store.releaseLease(lease, now));
    }

    @Override
    public boolean clearLapsedLease(String id, String owner, Instant now) {
        return inject("clearLapsedLease", () -> store.clearLapsedLease(id, owner, now));
    }

    @Override
    public boolean pauseSlots(java.util.List<String> ids, PauseMark mark, Instant now) {
        return inject("pauseSlots", () -> store.pauseSlots(ids, mark, now));
    }

    @Override
    public boolean resumeSlots(java.util.List<String> ids, PauseMark seen, Optional<PauseMark> after) {
        return inject("resumeSlots", () -> store.resumeSlots(ids, seen, after));
    }

    @Override
    public boolean releaseMaintenance(String group, Instant now, Optional<String> setBy) {
        return inject("releaseMaintenance", () -> store.releaseMaintenance(group, now, setBy));
    }

    @Override
    public LockState readLock(String id) {
        return inject("readLock", () -> store.readLock(id));
    }

    @Override
    public dev.punctual.ledger.spi.PauseRead readPauses(List<String> ids) {
        return inject("readPauses", () -> store.readPauses(ids));
    }

    @Override
    public Optional<RunRecord> readRun(RunKey key) {
        return inject("readRun", () -> store.readRun(key));
    }

    @Override
    public Optional<RunRecord> readMissed(RunKey firstOfRange) {
        return inject("readMissed", () -> store.readMissed(firstOfRange));
    }

    @Override
    public boolean planSkip(RunRecord planned, int maxSkips) {
        return inject("planSkip", () -> store.planSkip(planned, maxSkips));
    }

    @Override
    public boolean unskip(RunKey key) {
        return inject("unskip", () -> store.unskip(key));
    }

    @Override
    public boolean actOnSkip(RunRecord acted) {
        return inject("actOnSkip", () -> store.actOnSkip(acted));
    }

    @Override
    public boolean pruneSkips(String lockId, java.util.List<Instant> passed) {
        return inject("pruneSkips", () -> store.pruneSkips(lockId, passed));
    }

    @Override
    public boolean planApproval(RunRecord planned, Optional<RunRecord> replacing, int maxApprovals) {
        return inject("planApproval", () -> store.planApproval(planned, replacing, maxApprovals));
    }

    @Override
    public boolean pruneApprovals(String lockId, java.util.List<Instant> passed) {
        return inject("pruneApprovals", () -> store.pruneApprovals(lockId, passed));
    }

    @Override
    public boolean noteExecution(Lease lease, Instant now, ExecutionRecord execution) {
        return inject("noteExecution", () -> store.noteExecution(lease, now, execution));
    }

    @Override
    public Optional<ExecutionRecord> readExecution(RunKey key) {
        return inject("readExecution", () -> store.readExecution(key));
    }

    @Override
    public List<RunRecord> readRecentRuns(String ledgerId, Optional<Instant> since, int atMost) {
        return inject("readRecentRuns", () -> store.readRecentRuns(ledgerId, since, atMost));
    }

    @Override
    public List<dev.punctual.ledger.CompletedEntity> readCompleted(
            String job, int shard, Optional<String> afterEntity, int atMost) {
        return inject("readCompleted", () -> store.readCompleted(job, shard, afterEntity, atMost));
    }

    @Override
    public List<ExecutionRecord> readRecentExecutions(String ledgerId, int limit) {
        return inject("readRecentExecutions", () -> store.readRecentExecutions(ledgerId, limit));
    }

    @Override
    public ChunkPut putChunk(Lease lease, Instant now, ChunkRecord record, Optional<ChunkRecord> seen) {
        return inject("putChunk", () -> store.putChunk(lease, now, record, seen));
    }

    @Override
    public Optional<ChunkRecord> readChunk(RunKey key, String chunk) {
        return inject("readChunk", () -> store.readChunk(key, chunk));
    }

    @Override
    public List<ChunkRecord> readChunks(RunKey key) {
        return inject("readChunks", () -> store.readChunks(key));
    }
}
