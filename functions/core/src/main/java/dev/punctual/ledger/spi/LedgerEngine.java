package dev.punctual.ledger.spi;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Approval;
import dev.punctual.ledger.ApprovalPlan;
import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletedEntity;
import dev.punctual.ledger.CompletedPage;
import dev.punctual.ledger.CompletedShards;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.Due;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.History;
import dev.punctual.ledger.HistoryQuery;
import dev.punctual.ledger.Ids;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockSlots;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.LongRunLedger;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.PauseOutcome;
import dev.punctual.ledger.ResumeChoice;
import dev.punctual.ledger.ResumeOutcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipPlan;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.SkipResult;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.Summaries;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.Unskip;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * The ledger's logic over a {@link LedgerStore}: one implementation of the rules, two stores. Time comes
 * from the injected clock and owner tokens from the injected supplier (a fresh token per acquisition).
 * A store's module builds one and hands it out as a {@link RunLedger} (e.g. {@code DynamoDbRunLedger}),
 * so its callers never see the store.
 */
public final class LedgerEngine implements RunLedger {

    private final LedgerStore store;
    private final Clock clock;
    private final Supplier<String> tokens;
    private final Retention retention;
    private final Sleeper sleeper;
    private final Claiming claiming;
    private final Skipping skipping;
    private final Approving approving;
    private final LongRuns longRuns;

    public LedgerEngine(LedgerStore store, Clock clock, Supplier<String> tokens, Retention retention, Sleeper sleeper) {
        this.store = Objects.requireNonNull(store);
        this.clock = Objects.requireNonNull(clock);
        this.tokens = Objects.requireNonNull(tokens);
        this.retention = Objects.requireNonNull(retention);
        this.sleeper = Objects.requireNonNull(sleeper);
        this.claiming = new Claiming(store, retention, sleeper);
        this.skipping = new Skipping(store, retention);
        this.approving = new Approving(store, retention);
        this.longRuns = new LongRuns(store, this::now, retention, tokens);
    }

    /** Stored as epoch millis, so logic works at that precision too. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    @Override
    public ClaimResult claim(ClaimRequest request) {
        Instant now = now();
        if (request.trigger().fromSchedule()) {
            // Before the job runs: a scheduled claim is what later moves the cursor.
            Due.require(
                    request.key().scheduledTime(),
                    now,
                    "scheduled claim of " + request.key().jobId() + " at");
        }
        return claiming.claim(request, tokens.get(), now);
    }

    @Override
    public ClaimResult claimWaiting(ClaimRequest request, Duration maxWait, Duration pollEvery) {
        Instant giveUpAt = now().plus(maxWait);
        ClaimResult result = claim(request);
        while (result instanceof Busy && now().isBefore(giveUpAt)) {
            // Never sleep past the bound: the caller counts on the time left after it.
            Duration left = Duration.between(now(), giveUpAt);
            pause(left.compareTo(pollEvery) < 0 ? left : pollEvery);
            result = claim(request);
        }
        return result;
    }

    private void pause(Duration duration) {
        try {
            sleeper.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PunctualException("interrupted while waiting for a busy lock group", e);
        }
    }

    @Override
    public CompletionResult complete(Claim claim, Outcome outcome) {
        return new Completing(store, retention).complete(claim, outcome, now(), Optional.empty());
    }

    @Override
    public CompletionResult complete(Claim claim, Outcome outcome, NextDue next) {
        return new Completing(store, retention).complete(claim, outcome, now(), Optional.of(next));
    }

    @Override
    public SkipResult recordSkip(RunKey key, Trigger trigger, int schedulerAttempt, SkipReason reason, String detail) {
        Instant now = now();
        RunRecord skip = Records.skipped(
                key,
                trigger,
                schedulerAttempt,
                now,
                reason.name() + (detail == null ? "" : ": " + Summaries.sanitise(detail)),
                retention.expiryOf(RunStatus.SKIPPED, now));
        Write<Optional<RunRecord>> written = ReadBack.write(
                "record skip",
                () -> store.recordSkip(skip),
                () -> store.readRun(key).filter(skip::equals).map(r -> new Write.Applied<>(Optional.of(r))));
        // A rejection showing our own skip means an earlier send (an SDK retry) was applied.
        boolean ours = written.applied() || written.value().filter(skip::equals).isPresent();
        return ours ? new SkipResult.Recorded(skip) : new SkipResult.Kept(written.value());
    }

    @Override
    public boolean recordMissed(RunKey first, Instant last, int count) {
        Instant now = now();
        Due.require(last, now, "missed range of " + first.jobId() + " up to");
        RunRecord missed = Records.missed(first, now, last, count, retention.expiryOf(RunStatus.MISSED, now));
        return ReadBack.write(
                "record missed",
                () -> store.recordMissed(missed),
                // Applied only when both the range and the cursor move landed; otherwise send the
                // (idempotent) pair again rather than leave the cursor behind the recorded range.
                () -> store.readMissed(first)
                        .filter(missed::equals)
                        .filter(m -> cursor(first.jobId())
                                .filter(c -> !c.isBefore(last))
                                .isPresent())
                        .map(m -> true));
    }

    @Override
    public Optional<Instant> cursor(String jobId) {
        return Optional.ofNullable(store.readLock(Ids.require(jobId, "jobId")).cursor());
    }

    @Override
    public Optional<RunRecord> run(RunKey key) {
        Slot slot = store.readLock(key.jobId()).slot();
        Optional<RunRecord> stored = store.readRun(key);
        boolean inFlightOnSlot = slot != null
                && slot.running()
                && slot.occurrence().equals(key.scheduledTime())
                && stored.map(r -> r.status() == RunStatus.SKIPPED).orElse(true);
        if (inFlightOnSlot) {
            return Optional.of(Records.asRunning(slot, key.jobId(), null));
        }
        return stored;
    }

    /**
     * One more row than asked is read, so "more" is known without a second page; the slot's in-flight
     * occurrence is placed among them as {@link #run} merges it (it has no run item yet, or only a skip the
     * claim replaced).
     */
    @Override
    public History history(String ledgerId, HistoryQuery query) {
        Ids.require(ledgerId, "ledgerId");
        Slot slot = store.readLock(ledgerId).slot();
        List<RunRecord> stored = store.readRecentRuns(ledgerId, query.from(), query.limit() + 1);
        List<RunRecord> rows = new ArrayList<>(stored);
        boolean slotWanted = slot != null
                && slot.running()
                && query.from().map(since -> !slot.occurrence().isBefore(since)).orElse(true);
        if (slotWanted) {
            RunRecord running = Records.asRunning(slot, ledgerId, null);
            boolean replaced = rows.removeIf(r -> r.key().equals(running.key()) && r.status() == RunStatus.SKIPPED);
            // A missed range starting at the same occurrence is another item: it is not the occurrence's record.
            boolean recorded =
                    rows.stream().anyMatch(r -> r.key().equals(running.key()) && r.status() != RunStatus.MISSED);
            // One older than every row read falls off below with the rest beyond the bound.
            if (replaced || !recorded) {
                rows.add(running);
            }
        }
        // Newest first; the sort is stable, so a run item keeps its place before a range starting with it.
        rows.sort(java.util.Comparator.comparing((RunRecord r) -> r.key().scheduledTime())
                .reversed());
        boolean more = rows.size() > query.limit();
        return new History(ledgerId, more ? rows.subList(0, query.limit()) : rows, more);
    }

    @Override
    public Optional<Lease> extend(Lease lease, Instant requested) {
        if (!requested.isAfter(lease.expiresAt())) {
            // Shortening would let a successor in while the holder still counts on its deadline.
            throw new IllegalArgumentException(
                    "until must be after the lease's end " + lease.expiresAt() + ", was " + requested);
        }
        // The stores keep milliseconds; the read-back below compares with what was stored.
        Instant until = requested.truncatedTo(ChronoUnit.MILLIS);
        if (!until.isAfter(lease.expiresAt())) {
            return Optional.of(lease); // less than a millisecond more: the lease already covers it
        }
        Instant now = now();
        Write<LockState> extended = ReadBack.write(
                "extend lease",
                () -> store.extendLease(lease, until, now),
                () -> Optional.of(store.readLock(lease.group()))
                        .filter(s -> lease.ownerToken().equals(s.leaseOwner()) && until.equals(s.leaseUntil()))
                        .map(Write.Applied::new));
        return extended.applied()
                ? Optional.of(Records.leaseFor(extended.value(), lease.ownerToken()))
                : Optional.empty();
    }

    @Override
    public EntityTombstone tombstoneEntity(String ledgerId, String deletedBy) {
        String id = requireEntityLedgerId(ledgerId);
        EntityTombstone stone = new EntityTombstone(now(), deletedBy);
        // Applied or refused, the stored item shows the tombstone that stands: ours or an earlier one.
        Write<LockState> written = ReadBack.write(
                "tombstone entity " + id,
                () -> store.tombstoneEntity(id, stone),
                () -> Optional.of(store.readLock(id)).filter(LockState::deleted).map(Write.Applied::new));
        return written.value().tombstone();
    }

    @Override
    public boolean takeEntityWrite(String ledgerId, String owner, java.time.Duration term) {
        String id = requireEntityLedgerId(ledgerId);
        Ids.require(owner, "owner");
        Instant now = now();
        Instant until = now.plus(term);
        // Its condition lets the owner take it again, so sending it again is the read-back.
        try {
            return store.takeEntityWrite(id, owner, now, until);
        } catch (OutcomeUnknownException unknown) {
            return store.takeEntityWrite(id, owner, now, until);
        }
    }

    @Override
    public boolean renewEntityWrite(String ledgerId, String owner, java.time.Duration term) {
        String id = requireEntityLedgerId(ledgerId);
        Instant until = now().plus(term);
        try {
            return store.renewEntityWrite(id, owner, until);
        } catch (OutcomeUnknownException unknown) {
            return store.renewEntityWrite(id, owner, until);
        }
    }

    @Override
    public void releaseEntityWrite(String ledgerId, String owner) {
        String id = requireEntityLedgerId(ledgerId);
        // Refused when it is no longer ours (released by the first send, or taken after its term): either
        // way it is not ours any more, which is what a release asks.
        try {
            store.releaseEntityWrite(id, owner);
        } catch (OutcomeUnknownException unknown) {
            store.releaseEntityWrite(id, owner);
        }
    }

    @Override
    public boolean clearEntityTombstone(String ledgerId) {
        String id = requireEntityLedgerId(ledgerId);
        return ReadBack.write(
                "clear entity tombstone " + id,
                () -> store.clearEntityTombstone(id),
                () -> Optional.of(store.readLock(id)).filter(s -> !s.deleted()).map(s -> true));
    }

    @Override
    public NextDue noteEntityDue(String ledgerId, java.util.function.Function<Instant, Optional<Instant>> nextAfter) {
        String id = requireEntityLedgerId(ledgerId);
        NextDue next = nextAfter.apply(now()).map(NextDue::at).orElseGet(NextDue::none);
        // No condition, so sending it again after an unknown outcome is the read-back.
        try {
            store.noteDue(id, next);
        } catch (OutcomeUnknownException unknown) {
            store.noteDue(id, next);
        }
        return next;
    }

    /** Only an entity's ledger id ({@code job:entity}) is tombstoned: a job's own item never is. */
    private static String requireEntityLedgerId(String ledgerId) {
        Ids.require(ledgerId, "ledgerId");
        int colon = ledgerId.indexOf(':');
        if (colon <= 0 || colon == ledgerId.length() - 1) {
            throw new IllegalArgumentException(
                    "ledgerId: an entity's ledger id 'job:entity' is accepted, was '" + ledgerId + "'");
        }
        return ledgerId;
    }

    @Override
    public SkipPlan skip(RunKey key, String by, String why) {
        Ids.require(key.jobId(), "jobId");
        if (by == null || by.isBlank() || why == null || why.isBlank()) {
            throw new IllegalArgumentException("skip of " + key + ": who (by) and why (reason) are both required");
        }
        // Who is the operator's name as the CLI checked it, redacted as a maintenance hold's setter is
        // (OperatorSkip does it); the reason is free text, stored on one line with secrets masked, as
        // every summary is.
        return skipping.skip(key, by, Summaries.sanitise(why), now());
    }

    @Override
    public PauseOutcome pause(String lockId, String by, String why, Optional<Instant> until, boolean catchUp) {
        Ids.require(lockId, "lockId");
        if (by == null || by.isBlank() || why == null || why.isBlank()) {
            throw new IllegalArgumentException("pause of " + lockId + ": who (by) and why (reason) are both required");
        }
        Instant now = now();
        if (until.isPresent() && !until.get().isAfter(now)) {
            throw new IllegalArgumentException(
                    "pause of " + lockId + ": until " + until.get() + " is not after now (" + now + ")");
        }
        // As a skip's: the reason is stored on one line with secrets masked, as every summary is.
        PauseMark mark = new PauseMark(now, until, by, Summaries.sanitise(why), catchUp);
        Write<LockState> written = ReadBack.write(
                "pause " + lockId,
                () -> store.pause(lockId, mark, now),
                () -> Optional.of(store.readLock(lockId))
                        .filter(s -> mark.equals(s.pause()))
                        .map(Write.Applied::new));
        LockState after = written.value();
        if (written.applied() || mark.equals(after.pause())) {
            return new PauseOutcome.Set(after);
        }
        return new PauseOutcome.AlreadyPaused(after.pause());
    }

    @Override
    public PauseOutcome pause(
            String group, int slots, String by, String why, Optional<Instant> until, boolean catchUp) {
        if (slots == 1) {
            return pause(group, by, why, until, catchUp);
        }
        List<String> ids = LockSlots.slotIds(Ids.require(group, "group"), slots);
        if (by == null || by.isBlank() || why == null || why.isBlank()) {
            throw new IllegalArgumentException("pause of " + group + ": who (by) and why (reason) are both required");
        }
        Instant now = now();
        if (until.isPresent() && !until.get().isAfter(now)) {
            throw new IllegalArgumentException(
                    "pause of " + group + ": until " + until.get() + " is not after now (" + now + ")");
        }
        PauseMark mark = new PauseMark(now, until, by, Summaries.sanitise(why), catchUp);
        // Slot 0 carries the condition (PAUSE_MAY_SET) and is what status reads; the others get the same mark
        // in the same transaction, so no claim on any slot sees the group half paused.
        Write<Boolean> written = ReadBack.write(
                "pause " + group,
                () -> store.pauseSlots(ids, mark, now) ? new Write.Applied<>(true) : new Write.Rejected<>(false),
                () -> Optional.of(store.readLock(group))
                        .filter(s -> mark.equals(s.pause()))
                        .map(s -> new Write.Applied<>(true)));
        LockState after = store.readLock(group);
        if (written.applied() || mark.equals(after.pause())) {
            return new PauseOutcome.Set(after);
        }
        return new PauseOutcome.AlreadyPaused(after.pause());
    }

    @Override
    public ResumeOutcome resume(String group, int slots, ResumeChoice choice) {
        if (slots == 1) {
            return resume(group, choice);
        }
        List<String> ids = LockSlots.slotIds(Ids.require(group, "group"), slots);
        return resume(group, choice, (seen, after) -> store.resumeSlots(ids, seen, after));
    }

    @Override
    public ResumeOutcome resume(String lockId, ResumeChoice choice) {
        Ids.require(lockId, "lockId");
        return resume(lockId, choice, (seen, after) -> store.resume(lockId, seen, after));
    }

    /**
     * Ends the pause read on {@code lockId} (a lock item, or a group's first slot) with the choice made;
     * {@code write} sends the conditional write (one item, or every slot of a group in one transaction),
     * which applies only if the mark is still the one read.
     */
    private ResumeOutcome resume(
            String lockId, ResumeChoice choice, BiPredicate<PauseMark, Optional<PauseMark>> write) {
        Instant now = now();
        PauseMark seen = store.readLock(lockId).pause();
        if (seen == null) {
            return new ResumeOutcome.NotPaused();
        }
        Optional<PauseMark> after = switch (choice) {
            case CATCH_UP -> Optional.empty();
            case SKIP_PAUSED -> Optional.of(seen.endedWithoutCatchUp(now));
        };
        Write<Boolean> written = ReadBack.write(
                "resume " + lockId,
                () -> write.test(seen, after) ? new Write.Applied<>(true) : new Write.Rejected<>(false),
                () -> Optional.of(store.readLock(lockId))
                        .filter(s -> after.isPresent() ? after.get().equals(s.pause()) : s.pause() == null)
                        .map(s -> new Write.Applied<>(true)));
        return written.applied() ? new ResumeOutcome.Resumed(seen, after) : new ResumeOutcome.NotPaused();
    }

    @Override
    public Unskip unskip(RunKey key) {
        return skipping.unskip(key);
    }

    @Override
    public Optional<RunRecord> actOnSkip(RunRecord planned, Trigger trigger, int schedulerAttempt) {
        if (planned.skip().isEmpty()) {
            throw new IllegalArgumentException("actOnSkip: the record carries no operator's skip: " + planned.key());
        }
        return skipping.act(planned, trigger, schedulerAttempt, now());
    }

    @Override
    public List<RunRecord> skipsAhead(String jobId) {
        return skipping.ahead(Ids.require(jobId, "jobId"));
    }

    @Override
    public ApprovalPlan approve(RunKey key, String by, String why, String preview) {
        Ids.require(key.jobId(), "jobId");
        if (by == null || by.isBlank()) {
            throw new IllegalArgumentException("approval of " + key + ": who (by) is required");
        }
        // Who, why and the preview are redacted and kept on one line by Approval itself.
        return approving.approve(key, new Approval(by, why, now(), preview));
    }

    @Override
    public List<RunRecord> approvalsAhead(String jobId) {
        return approving.ahead(Ids.require(jobId, "jobId"));
    }

    @Override
    public MaintenanceReport maintenanceOn(MaintenanceRequest request) {
        return new Maintenance(store, clock, sleeper).turnOn(request, tokens.get());
    }

    @Override
    public List<String> maintenanceOff(List<String> groups, Optional<String> setBy) {
        Instant now = now();
        List<String> lifted = new ArrayList<>();
        for (String group : groups) {
            boolean released = ReadBack.write(
                    "lift maintenance",
                    // Compared with who set the hold as it was stored: redacted (MaintenanceHold).
                    () -> store.releaseMaintenance(group, now, setBy.map(Summaries::operatorText)),
                    () -> Optional.of(store.readLock(group))
                            .filter(s -> !s.underMaintenanceAt(now))
                            .map(s -> true));
            if (released) {
                lifted.add(group);
            }
        }
        return lifted;
    }

    @Override
    public Optional<Lease> renewHold(Lease lease, Instant requested) {
        Instant now = now();
        Instant until = requested.truncatedTo(ChronoUnit.MILLIS);
        if (!until.isAfter(now)) {
            throw new IllegalArgumentException("renewHold: until must be after now " + now + ", was " + requested);
        }
        // Shorter is allowed here, unlike extend: the hold's holder is the one that counts on its end.
        Write<LockState> renewed = ReadBack.write(
                "renew maintenance of " + lease.group(),
                () -> store.extendLease(lease, until, now),
                () -> Optional.of(store.readLock(lease.group()))
                        .filter(s -> lease.ownerToken().equals(s.leaseOwner()) && until.equals(s.leaseUntil()))
                        .map(Write.Applied::new));
        return renewed.applied()
                ? Optional.of(Records.leaseFor(renewed.value(), lease.ownerToken()))
                : Optional.empty();
    }

    @Override
    public List<String> releaseMaintenance(List<Lease> held) {
        Instant now = now();
        List<String> released = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        PunctualException fault = null;
        for (Lease lease : held) {
            // Applied, or after an unknown answer: the item no longer carries our token (released by us,
            // or lapsed and taken since). A refusal means the token was already gone: not released by us.
            try {
                boolean ours = ReadBack.write(
                        "release maintenance of " + lease.group(),
                        () -> store.releaseLease(lease, now),
                        () -> Optional.of(store.readLock(lease.group()))
                                .filter(s -> !lease.ownerToken().equals(s.leaseOwner()))
                                .map(s -> true));
                if (ours) {
                    released.add(lease.group());
                }
            } catch (PunctualException unreachable) {
                // One group out of reach must not keep the others held: they are given back, this one lapses.
                kept.add(lease.group());
                fault = unreachable;
            }
        }
        if (fault != null) {
            throw new PunctualException(
                    "maintenance of " + kept + " could not be given back (released: " + released + ")", fault);
        }
        return released;
    }

    /**
     * Reads the job's shards in order from {@code from}, at most {@code limit} notes in all (a Query per
     * shard touched, so at most 32 a page), and confirms each against its entity's item (one consistent
     * read each): a tombstone there drops it, as {@code schedules get} answers a deleted entity.
     */
    @Override
    public CompletedPage completedEntities(String job, CompletedShards.Position from, int limit) {
        Ids.require(job, "job");
        if (limit < 1 || limit > CompletedPage.MAX_LIMIT) {
            throw new IllegalArgumentException("limit: 1-" + CompletedPage.MAX_LIMIT + " accepted, was " + limit);
        }
        List<CompletedEntity> kept = new ArrayList<>();
        int read = 0;
        CompletedShards.Position at = from;
        while (!at.done() && read < limit) {
            int want = limit - read;
            List<CompletedEntity> notes = store.readCompleted(job, at.shard(), at.after(), want);
            read += notes.size();
            for (CompletedEntity note : notes) {
                if (store.readLock(note.ledgerId()).tombstone() == null) {
                    kept.add(note);
                }
            }
            at = notes.size() < want
                    ? new CompletedShards.Position(at.shard() + 1, Optional.empty())
                    : new CompletedShards.Position(
                            at.shard(), Optional.of(notes.get(notes.size() - 1).entity()));
        }
        return new CompletedPage(kept, at.done() ? Optional.empty() : Optional.of(at.token()), read);
    }

    @Override
    public LockState lock(String group) {
        return store.readLock(LockSlots.requireLockItem(group, "group"));
    }

    /**
     * Batches of {@link LedgerStore#PAUSES_PER_READ} ids, each one request; the ids a request left unread
     * (throttled) are asked again after a wait that doubles from {@link #UNREAD_FIRST_WAIT}, as AWS asks of
     * BatchGetItem's UnprocessedKeys, for {@link #UNREAD_ROUNDS} rounds at most, then the read fails.
     */
    @Override
    public Map<String, PauseMark> pauses(Collection<String> lockIds) {
        List<String> ids = lockIds.stream()
                .map(id -> Ids.require(id, "lock id"))
                .distinct()
                .toList();
        Map<String, PauseMark> marks = new HashMap<>();
        for (int start = 0; start < ids.size(); start += LedgerStore.PAUSES_PER_READ) {
            List<String> batch = ids.subList(start, Math.min(ids.size(), start + LedgerStore.PAUSES_PER_READ));
            Duration wait = UNREAD_FIRST_WAIT;
            for (int round = 1; !batch.isEmpty(); round++) {
                PauseRead read = store.readPauses(batch);
                marks.putAll(read.marks());
                batch = read.unread();
                if (batch.isEmpty()) {
                    break;
                }
                if (round == UNREAD_ROUNDS) {
                    throw new PunctualException(batch.size() + " lock items still unread after " + UNREAD_ROUNDS
                            + " requests (the ledger is throttling reads): " + batch);
                }
                try {
                    sleeper.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new PunctualException("interrupted while reading pauses", e);
                }
                wait = wait.multipliedBy(2);
            }
        }
        return marks;
    }

    /** The wait before asking again for lock items a read left unread; doubled each round. */
    static final Duration UNREAD_FIRST_WAIT = Duration.ofMillis(50);

    /** Requests for one batch at most (waits of 50 ms to 3.2 s, about 6 s in all). */
    static final int UNREAD_ROUNDS = 8;

    @Override
    public Optional<MaintenanceHold> maintenance(String group) {
        LockState state = store.readLock(LockSlots.requireLockItem(group, "group"));
        return state.underMaintenanceAt(now()) ? Optional.of(state.maintenance()) : Optional.empty();
    }

    /** The executions and chunks of long occurrences (decision 0039), on the same store, clock and retention. */
    @Override
    public LongRunLedger longRuns() {
        return longRuns;
    }
}
