package dev.punctual.ledger.spi;

import dev.punctual.ledger.LockState;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipPlan;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.Unskip;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Operators' skips of single occurrences (decision 0033). A skip is two writes in one transaction: a
 * mark on the job's lock item, which every fresh claim's own write refuses (NOT_SKIPPED), and the planned
 * run item, which a claim that reads the run item finds. Either a claim comes first (the occurrence is in
 * flight on the slot, or its run item records a run) and the skip is refused, or the skip comes first and
 * no claim can start the occurrence: exactly one of the two wins, in the store's own conditions.
 */
final class Skipping {

    /**
     * Skips ahead of a job's cursor at most: each mark is carried by every write of the lock item (a
     * claim's, a completion's), about 14 bytes each, so 50 keep the item well under one write unit more.
     */
    static final int MAX_SKIPS_AHEAD = 50;

    /** A refused plan is explained from a read; the state may move between, so it is tried again. */
    private static final int PASSES = 3;

    private final LedgerStore store;
    private final Retention retention;

    Skipping(LedgerStore store, Retention retention) {
        this.store = store;
        this.retention = retention;
    }

    SkipPlan skip(RunKey key, String by, String why, Instant now) {
        Instant t = key.scheduledTime();
        for (int pass = 0; pass < PASSES; pass++) {
            LockState lock = store.readLock(key.jobId());
            pruneMarksPassed(lock);
            if (lock.cursor() != null && !lock.cursor().isBefore(t)) {
                return new SkipPlan.BehindCursor(lock.cursor());
            }
            // Kept until the occurrence's own skip retention has passed, however far ahead it was set:
            // an item TTL deleted before its occurrence would leave the mark alone, which the general
            // path's read of the run item does not see.
            Instant from = t.isAfter(now) ? t : now;
            RunRecord planned = Records.operatorSkipped(
                    key, new OperatorSkip(by, why, now, null), retention.expiryOf(RunStatus.SKIPPED, from));
            boolean stored = ReadBack.write(
                    "plan skip of " + key,
                    () -> store.planSkip(planned, MAX_SKIPS_AHEAD),
                    () -> store.readRun(key).filter(planned::equals).map(r -> true));
            if (stored) {
                return new SkipPlan.Planned(planned);
            }
            Optional<SkipPlan> refused = whyRefused(key);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        throw new dev.punctual.PunctualException(
                "skip of " + key + " did not settle in " + PASSES + " passes: the occurrence keeps changing");
    }

    /** Which half refused the plan, from the state as stored now; empty when nothing refuses it any more. */
    private Optional<SkipPlan> whyRefused(RunKey key) {
        Instant t = key.scheduledTime();
        Optional<RunRecord> run = store.readRun(key);
        if (run.flatMap(RunRecord::skip).isPresent()) {
            return Optional.of(new SkipPlan.AlreadySkipped(run.get()));
        }
        if (run.filter(r -> r.status() != RunStatus.SKIPPED).isPresent()) {
            return Optional.of(new SkipPlan.AlreadyStarted(run));
        }
        LockState lock = store.readLock(key.jobId());
        if (lock.cursor() != null && !lock.cursor().isBefore(t)) {
            return Optional.of(new SkipPlan.BehindCursor(lock.cursor()));
        }
        Slot slot = lock.slot();
        if (slot != null && slot.running() && slot.occurrence().equals(t)) {
            return Optional.of(new SkipPlan.AlreadyStarted(Optional.of(Records.asRunning(slot, key.jobId(), null))));
        }
        if (lock.skips().size() >= MAX_SKIPS_AHEAD) {
            return Optional.of(new SkipPlan.TooMany(MAX_SKIPS_AHEAD));
        }
        return Optional.empty();
    }

    /**
     * Marks at or behind the cursor refuse nothing any more; dropping them before a plan keeps the set to
     * the skips ahead (and its limit honest). Best effort: a lost answer leaves them for the next plan.
     */
    private void pruneMarksPassed(LockState lock) {
        if (lock.cursor() == null) {
            return;
        }
        List<Instant> passed = lock.skips().stream()
                .filter(mark -> !mark.isAfter(lock.cursor()))
                .toList();
        if (passed.isEmpty()) {
            return;
        }
        try {
            store.pruneSkips(lock.id(), passed);
        } catch (OutcomeUnknownException unknown) {
            // Harmless either way: the marks behind the cursor refuse nothing.
        }
    }

    Unskip unskip(RunKey key) {
        Optional<RunRecord> before = store.readRun(key);
        boolean removed = ReadBack.write(
                "unskip " + key,
                () -> store.unskip(key),
                () -> Optional.of(store.readRun(key).flatMap(RunRecord::skip).isEmpty())
                        .filter(gone -> gone));
        if (removed) {
            return new Unskip.Removed(before.filter(r -> r.skip().isPresent()).orElseGet(() -> removedRecord(key)));
        }
        Optional<RunRecord> now = store.readRun(key);
        if (now.flatMap(RunRecord::skip).filter(s -> !s.planned()).isPresent()) {
            return new Unskip.AlreadyActed(now.get());
        }
        return new Unskip.NotSkipped(now);
    }

    /** What unskip removed is gone from the store; the answer names the occurrence only. */
    private static RunRecord removedRecord(RunKey key) {
        return Records.inFlight(key, RunStatus.SKIPPED, 0, null, 0, Trigger.MANUAL, 0, null, null);
    }

    /**
     * A delivery (or catch-up, or replay) met the planned skip: the acted record replaces it while still
     * planned, so an unskip racing the delivery either came first (the occurrence is claimable again) or
     * is told the skip took effect. Empty when the skip is no longer planned.
     */
    Optional<RunRecord> act(RunRecord planned, Trigger trigger, int schedulerAttempt, Instant now) {
        RunRecord acted = Records.skipActedOn(planned, now, trigger, schedulerAttempt);
        boolean stored = ReadBack.write(
                "act on skip of " + planned.key(),
                () -> store.actOnSkip(acted),
                () -> store.readRun(planned.key()).filter(acted::equals).map(r -> true));
        return stored ? Optional.of(acted) : Optional.empty();
    }

    /** The job's (or entity's) skips ahead of its cursor, each with its run item, oldest first. */
    List<RunRecord> ahead(String lockId) {
        LockState lock = store.readLock(lockId);
        return lock.skips().stream()
                .filter(mark -> lock.cursor() == null || mark.isAfter(lock.cursor()))
                .map(mark -> store.readRun(new RunKey(lockId, mark)))
                .flatMap(Optional::stream)
                .filter(r -> r.skip().isPresent())
                .toList();
    }
}
