package dev.punctual.ledger.dynamodb;

import static dev.punctual.ledger.dynamodb.Expressions.*;

import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.CompletedEntity;
import dev.punctual.ledger.DueBuckets;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.NextDue;
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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The ledger's store on one DynamoDB table (see docs/ledger.md). Each method is one request, except
 * where noted; the client is built by the caller (region, HTTP client, retries, interceptors).
 */
public final class DynamoDbLedgerStore implements LedgerStore {

    private final DynamoDbClient dynamo;
    private final Requests requests;
    private final LongRunRequests longRuns;
    private final Integer queryPage;

    public DynamoDbLedgerStore(DynamoDbClient dynamo, String table) {
        this(dynamo, table, null);
    }

    /**
     * @param chunkPage the most items one Query page holds, of chunk records and of a history's run items
     *     (tests: pages without a megabyte of items); null for DynamoDB's own page
     */
    DynamoDbLedgerStore(DynamoDbClient dynamo, String table, Integer chunkPage) {
        this.dynamo = Objects.requireNonNull(dynamo);
        this.requests = new Requests(Objects.requireNonNull(table));
        this.longRuns = new LongRunRequests(dynamo, requests, chunkPage);
        this.queryPage = chunkPage;
    }

    @Override
    public Write<LockState> takeLeaseAndClaimFresh(LeaseGrant grant, SlotClaim claim) {
        Values v = Values.lease(grant).slot(claim);
        if (claim.approvalRequired()) {
            return updateLock(grant.group(), TAKE_LEASE_AND_CLAIM_APPROVED, TAKE_LEASE_AND_CLAIM_APPROVED_CONDITION, v);
        }
        return updateLock(grant.group(), TAKE_LEASE_AND_CLAIM, TAKE_LEASE_AND_CLAIM_CONDITION, v);
    }

    @Override
    public Write<LockState> takeLease(LeaseGrant grant) {
        if (grant.hold() == null) {
            return updateLock(grant.group(), TAKE_JOB_LEASE, TAKE_JOB_LEASE_CONDITION, Values.lease(grant));
        }
        boolean command = grant.hold().command().isPresent();
        String condition =
                grant.force() ? MAINTENANCE_MAY_FORCE : command ? COMMAND_HOLD_MAY_TAKE : MAINTENANCE_MAY_TAKE;
        String update = command ? TAKE_COMMAND_HOLD : TAKE_MAINTENANCE_LEASE;
        return updateLock(grant.group(), update, condition, Values.lease(grant));
    }

    /**
     * One TransactWriteItems: the update of the job's group under NO_HOLD_IN_FORCE, which notes the lease's
     * time for a hold to come (NOTE_ENTITY_LEASE), and the update of the entity's item. Cancelled, the
     * reasons' ALL_OLD items say which condition refused it.
     */
    @Override
    public Write<Optional<LockState>> takeEntityLease(EntityGrant grant) {
        Values v = Values.lease(grant.lease()).put(":fence", Av.n(grant.fence()));
        grant.claim().ifPresent(c -> v.slot(c).put(":fence", Av.n(grant.fence())));
        grant.expectedCursor().ifPresent(c -> v.put(":expectedCursor", Av.millis(c)));
        boolean approved = grant.claim().filter(SlotClaim::approvalRequired).isPresent();
        String update = grant.claim().isPresent()
                ? (approved ? TAKE_ENTITY_LEASE_AND_CLAIM_APPROVED : TAKE_ENTITY_LEASE_AND_CLAIM)
                : TAKE_ENTITY_LEASE;
        String condition = grant.claim().isPresent()
                ? (approved ? TAKE_ENTITY_LEASE_AND_CLAIM_APPROVED_CONDITION : TAKE_ENTITY_LEASE_AND_CLAIM_CONDITION)
                : TAKE_ENTITY_LEASE_CONDITION;
        String entity = grant.lease().group();
        List<TransactWriteItem> items = List.of(
                requests.transactUpdate(Keys.lock(grant.holdGroup()), NOTE_ENTITY_LEASE, GROUP_LETS_ENTITY, v),
                requests.transactUpdate(Keys.lock(entity), update, condition, v));
        try {
            Send.request(
                    "take entity lease " + entity, () -> dynamo.transactWriteItems(requests.transaction(items, null)));
            return new Write.Applied<>(Optional.empty());
        } catch (TransactionCanceledException e) {
            Cancellations.unknownUnlessConditionFailed(e, "take entity lease " + entity);
            var reasons = e.cancellationReasons();
            if ("ConditionalCheckFailed".equals(reasons.get(0).code())) {
                return new Write.Rejected<>(
                        Optional.of(Codec.lock(grant.holdGroup(), reasons.get(0).item())));
            }
            return new Write.Rejected<>(
                    Optional.of(Codec.lock(entity, reasons.get(1).item())));
        }
    }

    @Override
    public Write<LockState> tombstoneEntity(String ledgerId, EntityTombstone tombstone) {
        Values v = Values.of()
                .put(":deletedAt", Av.millis(tombstone.deletedAt()))
                .put(":deletedBy", Av.s(tombstone.deletedBy()));
        return updateLock(ledgerId, TOMBSTONE_SET, TOMBSTONE_ABSENT, v);
    }

    @Override
    public boolean takeEntityWrite(String ledgerId, String owner, Instant now, Instant until) {
        Values v = Values.of()
                .put(":owner", Av.s(owner))
                .put(":until", Av.millis(until))
                .put(":now", Av.millis(now));
        return updateLock(ledgerId, ENTITY_WRITE_TAKE, ENTITY_WRITE_MAY_TAKE, v).applied();
    }

    @Override
    public boolean renewEntityWrite(String ledgerId, String owner, Instant until) {
        Values v = Values.of().put(":owner", Av.s(owner)).put(":until", Av.millis(until));
        return updateLock(ledgerId, ENTITY_WRITE_RENEW, ENTITY_WRITE_OURS, v).applied();
    }

    @Override
    public boolean releaseEntityWrite(String ledgerId, String owner) {
        Values v = Values.of().put(":owner", Av.s(owner));
        return updateLock(ledgerId, ENTITY_WRITE_RELEASE, ENTITY_WRITE_OURS, v).applied();
    }

    @Override
    public boolean clearEntityTombstone(String ledgerId) {
        return updateLock(ledgerId, TOMBSTONE_CLEAR, TOMBSTONE_PRESENT, Values.of())
                .applied();
    }

    @Override
    public void noteDue(String ledgerId, NextDue next) {
        Values v = Values.of();
        next.at()
                .ifPresent(at -> v.put(":nextDue", Av.millis(at)).put(":dueBucket", Av.s(DueBuckets.of(ledgerId, at))));
        updateLock(ledgerId, next.at().isPresent() ? NOTE_DUE : CLEAR_DUE, null, v);
    }

    @Override
    public Write<LockState> claimFresh(SlotClaim claim) {
        return updateLock(
                claim.key().jobId(),
                claim.approvalRequired() ? CLAIM_FRESH_APPROVED : CLAIM_FRESH,
                claim.approvalRequired() ? CLAIM_FRESH_APPROVED_CONDITION : CLAIM_FRESH_CONDITION,
                Values.of().slot(claim));
    }

    @Override
    public Write<LockState> pause(String id, PauseMark mark, Instant now) {
        Values v = Values.of()
                .put(":now", Av.millis(now))
                .put(":pausedFrom", Av.millis(mark.from()))
                .put(":pausedBy", Av.s(mark.by()))
                .put(":pausedWhy", Av.s(mark.why()))
                .put(":catchUp", AttributeValue.fromBool(mark.catchUp()));
        mark.until().ifPresent(u -> v.put(":pausedTo", Av.millis(u)));
        return updateLock(id, mark.until().isPresent() ? PAUSE_UNTIL : PAUSE_SET, PAUSE_MAY_SET, v);
    }

    @Override
    public boolean resume(String id, PauseMark seen, Optional<PauseMark> after) {
        Values v = Values.of().put(":pausedFrom", Av.millis(seen.from()));
        after.ifPresent(a -> v.put(":pausedTo", Av.millis(a.until().orElseThrow()))
                .put(":catchUp", AttributeValue.fromBool(a.catchUp())));
        return updateLock(id, after.isPresent() ? RESUME_SKIP_PAUSED : RESUME_CATCH_UP, PAUSE_AS_READ, v)
                .applied();
    }

    /** One transaction over a group's slots (decision 0051): PAUSE_MAY_SET on slot 0, the mark on every slot. */
    @Override
    public boolean pauseSlots(List<String> ids, PauseMark mark, Instant now) {
        Values v = Values.of()
                .put(":now", Av.millis(now))
                .put(":pausedFrom", Av.millis(mark.from()))
                .put(":pausedBy", Av.s(mark.by()))
                .put(":pausedWhy", Av.s(mark.why()))
                .put(":catchUp", AttributeValue.fromBool(mark.catchUp()));
        mark.until().ifPresent(u -> v.put(":pausedTo", Av.millis(u)));
        String update = mark.until().isPresent() ? PAUSE_UNTIL : PAUSE_SET;
        List<TransactWriteItem> items = new java.util.ArrayList<>();
        items.add(requests.transactUpdate(Keys.lock(ids.get(0)), update, PAUSE_MAY_SET, v));
        ids.stream().skip(1).forEach(id -> items.add(requests.transactUpdate(Keys.lock(id), update, v)));
        return transact("pause " + ids.get(0), items);
    }

    /** One transaction (decision 0051): PAUSE_AS_READ on slot 0, the same resume on every slot. */
    @Override
    public boolean resumeSlots(List<String> ids, PauseMark seen, Optional<PauseMark> after) {
        Values v = Values.of().put(":pausedFrom", Av.millis(seen.from()));
        after.ifPresent(a -> v.put(":pausedTo", Av.millis(a.until().orElseThrow()))
                .put(":catchUp", AttributeValue.fromBool(a.catchUp())));
        String update = after.isPresent() ? RESUME_SKIP_PAUSED : RESUME_CATCH_UP;
        List<TransactWriteItem> items = new java.util.ArrayList<>();
        items.add(requests.transactUpdate(Keys.lock(ids.get(0)), update, PAUSE_AS_READ, v));
        ids.stream().skip(1).forEach(id -> items.add(requests.transactUpdate(Keys.lock(id), update, v)));
        return transact("resume " + ids.get(0), items);
    }

    @Override
    public Write<Optional<RunRecord>> claimRun(RunRecord running, Optional<RunRecord> seen) {
        String condition = seen.isEmpty() ? RUN_ABSENT : RUN_UNCHANGED;
        Values v = Values.of();
        seen.ifPresent(r -> v.put(":seenStatus", Av.s(r.status().name())).put(":seenAttempts", Av.n(r.attempts())));
        try {
            Send.request("claim run item", () -> dynamo.putItem(requests.putRun(running, condition, v)));
            return new Write.Applied<>(Optional.of(running));
        } catch (ConditionalCheckFailedException e) {
            return new Write.Rejected<>(Codec.run(e.item()));
        }
    }

    @Override
    public boolean abandonSlot(String jobId, Slot dead, RunRecord abandoned) {
        Values v = Values.of()
                .occurrence(dead.occurrence())
                .put(":deadOwner", Av.s(dead.ownerToken()))
                .status(":running", RunStatus.RUNNING)
                .status(":skipped", RunStatus.SKIPPED)
                .status(":abandoned", RunStatus.ABANDONED);
        List<TransactWriteItem> items = List.of(
                requests.transactPut(abandoned, SLOT_RUN_REPLACEABLE, v),
                requests.transactUpdate(Keys.lock(jobId), SLOT_ABANDONED, SLOT_STILL_DEAD, v));
        try {
            Send.request("record abandoned slot", () -> dynamo.transactWriteItems(requests.transaction(items, null)));
            return true;
        } catch (TransactionCanceledException e) {
            return Cancellations.unknownUnlessConditionFailed(e, "record abandoned slot");
        }
    }

    @Override
    public boolean abandonRun(RunRecord dead, RunRecord abandoned) {
        Values v = Values.of().put(":deadOwner", Av.s(dead.ownerToken())).status(":running", RunStatus.RUNNING);
        return conditionalPut("record abandoned run", abandoned, RUN_STILL_DEAD, v);
    }

    @Override
    public Commit commit(CompletionPlan plan) {
        List<TransactWriteItem> items = new CommitItems(requests, plan).items();
        try {
            Send.request(
                    "complete run", () -> dynamo.transactWriteItems(requests.transaction(items, plan.requestToken())));
            return Commit.COMMITTED;
        } catch (TransactionCanceledException e) {
            return Cancellations.commitOutcome(e, plan);
        }
    }

    @Override
    public boolean recordFenced(RunRecord failed, boolean onSlot) {
        Values v = Values.of()
                .put(":token", Av.s(failed.ownerToken()))
                .put(":fence", Av.n(failed.fence()))
                .status(":succeeded", RunStatus.SUCCEEDED)
                .status(":running", RunStatus.RUNNING);
        boolean stored = conditionalPut("record fenced run", failed, FENCED_MAY_RECORD, v);
        if (onSlot) {
            Values slot = v.occurrence(failed.key().scheduledTime()).status(":final", RunStatus.FAILED);
            updateLock(failed.key().jobId(), "SET " + SLOT_FINISHED, SLOT_OURS, slot);
        }
        return stored;
    }

    @Override
    public Write<Optional<RunRecord>> recordSkip(RunRecord skipped) {
        Values v = Values.of().status(":skipped", RunStatus.SKIPPED);
        try {
            Send.request("record skip", () -> dynamo.putItem(requests.putRun(skipped, SKIP_MAY_RECORD, v)));
            return new Write.Applied<>(Optional.of(skipped));
        } catch (ConditionalCheckFailedException e) {
            return new Write.Rejected<>(Codec.run(e.item()));
        }
    }

    /** Two requests: the range item (idempotent) and the forward-only cursor move. */
    @Override
    public boolean recordMissed(RunRecord range) {
        try {
            Send.request("record missed range", () -> dynamo.putItem(requests.putMissed(range, RUN_ABSENT)));
        } catch (ConditionalCheckFailedException alreadyRecorded) {
            // The same range recorded by an earlier attempt: the cursor move below is still owed.
        }
        Values v = Values.of().occurrence(range.missedUntil());
        return updateLock(range.key().jobId(), "SET " + CURSOR_ADVANCE, CURSOR_BEHIND, v)
                .applied();
    }

    @Override
    public Write<LockState> extendLease(Lease lease, Instant until, Instant now) {
        Values v = Values.of()
                .put(":token", Av.s(lease.ownerToken()))
                .put(":now", Av.millis(now))
                .put(":until", Av.millis(until))
                .put(":fence", Av.n(lease.fence()));
        // A hold carries no fence (decision 0037): its renewal is the operator's write, which names none.
        return updateLock(lease.group(), EXTEND, lease.fenced() ? LEASE_OURS_AT_FENCE : HOLD_OURS, v);
    }

    @Override
    public boolean releaseLease(Lease lease, Instant now) {
        Values v = Values.of().put(":token", Av.s(lease.ownerToken()));
        return updateLock(lease.group(), RELEASE, LEASE_OWNED, v).applied();
    }

    @Override
    public boolean clearLapsedLease(String id, String owner, Instant now) {
        Values v = Values.of().put(":token", Av.s(owner)).put(":now", Av.millis(now));
        return updateLock(id, RELEASE, LEASE_LAPSED, v).applied();
    }

    @Override
    public boolean releaseMaintenance(String group, Instant now, Optional<String> setBy) {
        Values v = Values.of().put(":maintenance", Av.s("MAINTENANCE"));
        setBy.ifPresent(by -> v.put(":setBy", Av.s(by)));
        return updateLock(group, RELEASE, setBy.isPresent() ? MAINTENANCE_HELD_BY : MAINTENANCE_HELD, v)
                .applied();
    }

    @Override
    public LockState readLock(String id) {
        return Codec.lock(id, read("read lock item", Keys.lock(id)));
    }

    /**
     * One BatchGetItem of the ids' lock items, projected to their pause marks, eventually consistent
     * (Requests.pauseMarks); the answer's items name their ids by their key, and its UnprocessedKeys are
     * returned as ids to be asked again.
     */
    @Override
    public dev.punctual.ledger.spi.PauseRead readPauses(List<String> ids) {
        if (ids.size() > PAUSES_PER_READ) {
            throw new IllegalArgumentException(ids.size() + " ids in one BatchGetItem; at most " + PAUSES_PER_READ);
        }
        if (ids.isEmpty()) {
            return new dev.punctual.ledger.spi.PauseRead(Map.of(), List.of());
        }
        var response = Send.request(
                "read " + ids.size() + " pause marks",
                () -> dynamo.batchGetItem(
                        requests.pauseMarks(ids.stream().map(Keys::lock).toList())));
        Map<String, PauseMark> marks = new java.util.HashMap<>();
        for (Map<String, AttributeValue> item : response.responses().getOrDefault(requests.table(), List.of())) {
            String id = Keys.lockId(item);
            PauseMark mark = Codec.pause(item);
            if (mark != null) {
                marks.put(id, mark);
            }
        }
        var unprocessed = response.unprocessedKeys().get(requests.table());
        List<String> unread = unprocessed == null
                ? List.of()
                : unprocessed.keys().stream().map(Keys::lockId).toList();
        return new dev.punctual.ledger.spi.PauseRead(marks, unread);
    }

    @Override
    public Optional<RunRecord> readRun(RunKey key) {
        return Codec.run(read("read run item", Keys.run(key)));
    }

    @Override
    public Optional<RunRecord> readMissed(RunKey firstOfRange) {
        return Codec.run(read("read missed range", Keys.missed(firstOfRange)));
    }

    /**
     * One Query of the partition read backwards, eventually consistent (Requests.newestFirstQuery), its
     * Limit the rows still wanted, so DynamoDB reads (and bills) no item beyond the bound; a next page only
     * while the last one stopped before the bound and named a last key.
     */
    @Override
    public List<RunRecord> readRecentRuns(String ledgerId, Optional<Instant> since, int atMost) {
        Values v = Values.of().put(":pk", Keys.runPartition(ledgerId));
        since.ifPresent(t -> v.put(":since", Keys.runSortKey(t)));
        String condition = since.isPresent() ? RUNS_OF_SUBJECT_SINCE : RUNS_OF_SUBJECT;
        List<RunRecord> rows = new java.util.ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            int wanted = atMost - rows.size();
            int limit = queryPage == null ? wanted : Math.min(wanted, queryPage);
            Map<String, AttributeValue> from = start;
            var page = Send.request(
                    "read the history of " + ledgerId,
                    () -> dynamo.query(requests.newestFirstQuery(condition, v, limit, from)));
            page.items().forEach(item -> rows.add(Codec.run(item).orElseThrow()));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null && rows.size() < atMost);
        return rows;
    }

    @Override
    public List<CompletedEntity> readCompleted(String job, int shard, Optional<String> afterEntity, int atMost) {
        Values v = Values.of().put(":pk", Keys.completedPartition(job, shard));
        afterEntity.ifPresent(entity -> v.put(":after", Keys.completedSortKey(entity)));
        String condition = afterEntity.isPresent() ? COMPLETED_IN_SHARD_AFTER : COMPLETED_IN_SHARD;
        List<CompletedEntity> rows = new java.util.ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            int wanted = atMost - rows.size();
            int limit = queryPage == null ? wanted : Math.min(wanted, queryPage);
            Map<String, AttributeValue> from = start;
            var page = Send.request(
                    "read the completed entities of " + job + " (shard " + shard + ")",
                    () -> dynamo.query(requests.inOrderQuery(condition, v, limit, from)));
            page.items().forEach(item -> rows.add(CompletedNotes.note(item)));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null && rows.size() < atMost);
        return rows;
    }

    private Map<String, AttributeValue> read(String what, Map<String, AttributeValue> key) {
        return Send.request(what, () -> dynamo.getItem(requests.consistentGet(key)))
                .item();
    }

    private Write<LockState> updateLock(String id, String update, String condition, Values v) {
        try {
            var response = Send.request(
                    "update " + id, () -> dynamo.updateItem(requests.updateLock(id, update, condition, v)));
            return new Write.Applied<>(Codec.lock(id, response.attributes()));
        } catch (ConditionalCheckFailedException e) {
            return new Write.Rejected<>(Codec.lock(id, e.item()));
        }
    }

    private boolean conditionalPut(String what, RunRecord record, String condition, Values v) {
        try {
            Send.request(what, () -> dynamo.putItem(requests.putRun(record, condition, v)));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /** One transaction: the mark on the lock item (SKIP_AHEAD) and the planned run item (SKIP_MAY_PLAN). */
    @Override
    public boolean planSkip(RunRecord planned, int maxSkips) {
        RunKey key = planned.key();
        Values v = Values.of()
                .occurrence(key.scheduledTime())
                .put(":tSet", Av.millisSet(List.of(key.scheduledTime())))
                .put(":maxSkips", Av.n(maxSkips))
                .status(":running", RunStatus.RUNNING)
                .status(":skipped", RunStatus.SKIPPED);
        List<TransactWriteItem> items = List.of(
                requests.transactUpdate(Keys.lock(key.jobId()), SKIP_MARK, SKIP_AHEAD, v),
                requests.transactPut(planned, SKIP_MAY_PLAN, v));
        return transact("plan skip " + key, items);
    }

    /** One transaction: the planned run item's delete (SKIP_STILL_PLANNED) and its mark's (SKIP_UNMARK). */
    @Override
    public boolean unskip(RunKey key) {
        Values v = Values.of().put(":tSet", Av.millisSet(List.of(key.scheduledTime())));
        List<TransactWriteItem> items = List.of(
                requests.transactDelete(Keys.run(key), SKIP_STILL_PLANNED, v),
                requests.transactUpdate(Keys.lock(key.jobId()), SKIP_UNMARK, v));
        return transact("unskip " + key, items);
    }

    @Override
    public boolean actOnSkip(RunRecord acted) {
        return conditionalPut("act on skip", acted, SKIP_STILL_PLANNED, Values.of());
    }

    @Override
    public boolean pruneSkips(String lockId, List<Instant> passed) {
        Values v = Values.of().put(":passed", Av.millisSet(passed));
        return updateLock(lockId, SKIPS_PRUNE, null, v).applied();
    }

    /**
     * One transaction: the mark on the lock item (APPROVAL_AHEAD, APPROVAL_MARK) and the planned run item,
     * where none is stored (RUN_ABSENT) or over exactly the refusal read (APPROVAL_OVER_REFUSAL).
     */
    @Override
    public boolean planApproval(RunRecord planned, Optional<RunRecord> replacing, int maxApprovals) {
        RunKey key = planned.key();
        Values v = Values.of()
                .occurrence(key.scheduledTime())
                .put(":tSet", Av.millisSet(List.of(key.scheduledTime())))
                .put(":maxApprovals", Av.n(maxApprovals))
                .status(":running", RunStatus.RUNNING)
                .status(":skipped", RunStatus.SKIPPED);
        replacing.ifPresent(r -> v.put(":seenReason", Av.s(r.reason() == null ? "" : r.reason())));
        List<TransactWriteItem> items = List.of(
                requests.transactUpdate(Keys.lock(key.jobId()), APPROVAL_MARK, APPROVAL_AHEAD, v),
                requests.transactPut(planned, replacing.isPresent() ? APPROVAL_OVER_REFUSAL : RUN_ABSENT, v));
        return transact("plan approval " + key, items);
    }

    @Override
    public boolean pruneApprovals(String lockId, List<Instant> passed) {
        Values v = Values.of().put(":passed", Av.millisSet(passed));
        return updateLock(lockId, APPROVALS_PRUNE, null, v).applied();
    }

    private boolean transact(String what, List<TransactWriteItem> items) {
        try {
            Send.request(what, () -> dynamo.transactWriteItems(requests.transaction(items, null)));
            return true;
        } catch (TransactionCanceledException e) {
            return Cancellations.unknownUnlessConditionFailed(e, what);
        }
    }

    // ---- Long occurrences (decision 0039) --------------------------------------------------------------

    @Override
    public boolean noteExecution(Lease lease, Instant now, ExecutionRecord execution) {
        return longRuns.noteExecution(lease, now, execution);
    }

    @Override
    public Optional<ExecutionRecord> readExecution(RunKey key) {
        return longRuns.readExecution(key);
    }

    @Override
    public List<ExecutionRecord> readRecentExecutions(String ledgerId, int limit) {
        return longRuns.readRecentExecutions(ledgerId, limit);
    }

    @Override
    public ChunkPut putChunk(Lease lease, Instant now, ChunkRecord record, Optional<ChunkRecord> seen) {
        return longRuns.putChunk(lease, now, record, seen);
    }

    @Override
    public Optional<ChunkRecord> readChunk(RunKey key, String chunk) {
        return longRuns.readChunk(key, chunk);
    }

    @Override
    public List<ChunkRecord> readChunks(RunKey key) {
        return longRuns.readChunks(key);
    }
}
