package dev.punctual.ledger.spi;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.EntityDeleted;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LeaseKind;
import dev.punctual.ledger.LockSlots;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.OperatorSkipped;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.Unapproved;
import dev.punctual.ledger.UnderMaintenance;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The claim rules. The happy path is one conditional write (own group, occurrence after the cursor and
 * after the slot, nothing left running); everything else takes the lease first and then decides from
 * the stored state, so every decision is made while holding the group. An entity's tombstone refuses
 * every claim in the write that claims ({@link EntityDeleted}), on its own lease and on a shared one.
 */
final class Claiming {

    /** A claim under the lease may race only with stale writers; a few passes settle it. */
    private static final int PASSES = 4;

    private final LedgerStore store;
    private final Retention retention;

    private final Sleeper sleeper;

    Claiming(LedgerStore store, Retention retention, Sleeper sleeper) {
        this.sleeper = sleeper;
        this.store = store;
        this.retention = retention;
    }

    ClaimResult claim(ClaimRequest request, String token, Instant now) {
        if (request.holdGroup().isPresent()) {
            return claimOnEntityLease(request, token, now);
        }
        if (request.groupCapacity() > 1) {
            return claimAnySlot(request, token, now);
        }
        LeaseGrant grant = LeaseGrant.forJob(request, token, now);
        LockState ownState = null;
        if (ownGroup(request)) {
            Write<LockState> fast = takeLeaseAndClaimFresh(grant, SlotClaim.of(request, token, 0, now));
            if (fast.applied()) {
                return claimedOnSlot(request, request.lockGroup(), fast.value(), token, now);
            }
            if (fast.value().leaseHeldAt(now)) {
                return blocked(request, fast.value(), now);
            }
            Optional<RunRecord> done = succeededOnSlot(request, fast.value());
            if (done.isPresent()) {
                return new ClaimResult.AlreadyDone(done.get());
            }
            Optional<ClaimResult> paused = paused(request, fast.value(), now);
            if (paused.isPresent()) {
                return paused.get();
            }
        }
        Write<LockState> taken = takeLease(store, grant);
        if (!taken.applied()) {
            return blocked(request, taken.value(), now);
        }
        if (ownGroup(request)) {
            ownState = taken.value();
        }
        return holding(request, Records.leaseFor(taken.value(), token), ownState, now);
    }

    /**
     * A group of capacity N (decision 0051): its N slots are lease items of their own. The claim first tries
     * the slot its occurrence hashes to, so uncontended claims spread over the slots and cost what a shared
     * group's always cost (the slot's lease, then the job's slot claim); a busy slot sends it to the next
     * one, in a fixed order. Maintenance holds every slot and a pause marks every slot, so the first slot
     * tried answers those at once. Every slot busy: {@link Busy} naming the group and the slot that ends first.
     */
    private ClaimResult claimAnySlot(ClaimRequest request, String token, Instant now) {
        int capacity = request.groupCapacity();
        int home = homeSlot(request, capacity);
        Busy soonest = null;
        for (int i = 0; i < capacity; i++) {
            String slot = LockSlots.slotId(request.lockGroup(), (home + i) % capacity);
            Write<LockState> taken =
                    takeLease(store, LeaseGrant.forJob(request, token, now).onItem(slot));
            if (taken.applied()) {
                return holding(request, Records.leaseFor(taken.value(), token), null, now);
            }
            ClaimResult blocked = blocked(request, taken.value(), now);
            if (blocked instanceof UnderMaintenance held) {
                return new UnderMaintenance(request.lockGroup(), held.hold());
            }
            if (blocked instanceof ClaimResult.Paused paused) {
                return new ClaimResult.Paused(request.lockGroup(), paused.mark());
            }
            if (!(blocked instanceof Busy busy)) {
                return blocked;
            }
            if (soonest == null || endsBefore(busy, soonest)) {
                soonest = busy;
            }
        }
        return new Busy(request.lockGroup(), soonest.holder(), soonest.until());
    }

    private static boolean endsBefore(Busy a, Busy b) {
        return a.until() != null && (b.until() == null || a.until().isBefore(b.until()));
    }

    /**
     * The slot an occurrence tries first: its job and time hashed (CRC-32), so two jobs of the group due at
     * the same instant usually start on different slots, and a redelivery of an occurrence in flight meets
     * it on the slot it most likely holds.
     */
    static int homeSlot(ClaimRequest request, int capacity) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update((request.key().jobId() + "@" + request.key().scheduledTime().toEpochMilli())
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return (int) (crc.getValue() % capacity);
    }

    /**
     * Whether the run in flight under {@code owner} still holds one of its group's other slots (decision 0051).
     * Holding a slot no longer means holding the whole group: the owner of a RUNNING record may be alive on
     * another slot. Read each other slot (only on this rare path: a record found RUNNING under a fresh
     * lease). An owner whose lease there has ended on our clock is dead, and that lease is cleared under
     * its token (LEASE_LAPSED), so it can neither renew nor commit after we judged it dead; empty then.
     * A slot still held by it: that item, and the caller answers as the owner's run is live.
     */
    private Optional<LockState> liveElsewhere(ClaimRequest request, Lease ours, String owner, Instant now) {
        if (request.groupCapacity() == 1 || owner == null) {
            return Optional.empty();
        }
        for (String slot : LockSlots.slotIds(request.lockGroup(), request.groupCapacity())) {
            if (slot.equals(ours.group())) {
                continue;
            }
            LockState seen = store.readLock(slot);
            if (!owner.equals(seen.leaseOwner())) {
                continue;
            }
            if (seen.leaseHeldAt(now) || !clearLapsed(slot, owner, now)) {
                return Optional.of(seen);
            }
        }
        return Optional.empty();
    }

    /** Clears a lapsed lease under its token; false when it was renewed in between (still live). */
    private boolean clearLapsed(String slot, String owner, Instant now) {
        Write<Boolean> cleared = ReadBack.write(
                "clear lapsed lease " + slot,
                () -> store.clearLapsedLease(slot, owner, now)
                        ? new Write.Applied<>(true)
                        : new Write.Rejected<>(false),
                () -> Optional.of(store.readLock(slot))
                        .filter(s -> !owner.equals(s.leaseOwner()))
                        .map(s -> new Write.Applied<>(true)));
        if (cleared.applied()) {
            return true;
        }
        // Refused: either another owner took it since (the dead one's token gone) or it was renewed.
        LockState now2 = store.readLock(slot);
        return !owner.equals(now2.leaseOwner()) || !now2.leaseHeldAt(now);
    }

    /** The answer to a claim that met a live run of its job on another slot of its group. */
    private static ClaimResult liveRun(ClaimRequest request, Slot slot, LockState held) {
        if (slot.occurrence().equals(request.key().scheduledTime())) {
            return new ClaimResult.InProgressElsewhere(held.leaseHolder(), held.leaseUntil());
        }
        return new Busy(request.lockGroup(), held.leaseHolder(), held.leaseUntil());
    }

    /**
     * An entity's own lease (decision 0029, 5): its item {@code job:entity} carries lease, slot and
     * cursor, like a job in its own group, and each write that takes it is one transaction with a
     * ConditionCheck on the job's group, so a maintenance hold there refuses it in the same request. An
     * in-order occurrence (the cursor at the occurrence before) is claimed in that one request; anything
     * else takes the lease alone and decides under it, as the general path does.
     */
    private ClaimResult claimOnEntityLease(ClaimRequest request, String token, Instant now) {
        String holdGroup = request.holdGroup().orElseThrow();
        LeaseGrant grant = LeaseGrant.forJob(request, token, now);
        // The claimant chooses the fence (a transaction returns no item): its clock, or above a fence it met.
        long fence = Math.max(1, now.toEpochMilli());
        if (request.expectedCursor().isPresent()) {
            SlotClaim slot = SlotClaim.of(request, token, fence, now);
            Write<Optional<LockState>> fast = takeEntityLease(
                    new EntityGrant(grant, holdGroup, fence, Optional.of(slot), request.expectedCursor()));
            if (fast.applied()) {
                return claimedOnEntitySlot(request, token, fence, now);
            }
            LockState seen = fast.value().orElseThrow();
            if (!seen.id().equals(holdGroup) && seen.deleted()) {
                return new EntityDeleted(seen.id(), seen.tombstone());
            }
            if (seen.id().equals(holdGroup) || seen.leaseHeldAt(now)) {
                return blocked(request, seen, now);
            }
            Optional<RunRecord> done = succeededOnSlot(request, seen);
            if (done.isPresent()) {
                return new ClaimResult.AlreadyDone(done.get());
            }
            Optional<ClaimResult> paused = paused(request, seen, now);
            if (paused.isPresent()) {
                return paused.get();
            }
            fence = Math.max(fence, seen.fence() + 1);
        }
        for (int pass = 0; pass < PASSES; pass++) {
            Write<Optional<LockState>> taken =
                    takeEntityLease(new EntityGrant(grant, holdGroup, fence, Optional.empty(), Optional.empty()));
            if (taken.applied()) {
                Lease lease = new Lease(request.lockGroup(), token, fence, now, request.leaseUntil());
                return holding(request, lease, null, now);
            }
            LockState seen = taken.value().orElseThrow();
            if (!seen.id().equals(holdGroup) && seen.deleted()) {
                return new EntityDeleted(seen.id(), seen.tombstone());
            }
            if (seen.id().equals(holdGroup) || seen.leaseHeldAt(now)) {
                return blocked(request, seen, now);
            }
            Optional<ClaimResult> paused = paused(request, seen, now);
            if (paused.isPresent()) {
                return paused.get();
            }
            // Free, so refused by the fence: a clock behind the stored fence. Go above it.
            fence = Math.max(fence, seen.fence() + 1);
        }
        throw new PunctualException("entity lease of " + request.lockGroup() + " did not settle in " + PASSES
                + " passes (fence " + fence + ")");
    }

    private ClaimResult claimedOnEntitySlot(ClaimRequest request, String token, long fence, Instant now) {
        Lease lease = new Lease(request.lockGroup(), token, fence, now, request.leaseUntil());
        return new ClaimResult.Claimed(new Claim(
                request.key(),
                lease,
                1,
                request.trigger(),
                request.schedulerAttempt(),
                now,
                true,
                request.expectedCursor(),
                Optional.empty(),
                request.approvalRequired()));
    }

    /** A rejection that shows our own token means an earlier send was applied (an SDK retry). */
    private Write<Optional<LockState>> takeEntityLease(EntityGrant grant) {
        String entity = grant.lease().group();
        String token = grant.lease().token();
        Write<Optional<LockState>> written = ReadBack.write(
                "take entity lease " + entity,
                () -> store.takeEntityLease(grant),
                () -> Optional.of(store.readLock(entity))
                        .filter(s -> token.equals(s.leaseOwner()))
                        .map(s -> new Write.Applied<>(Optional.<LockState>empty())));
        boolean ours = written.value()
                .filter(s -> s.id().equals(entity) && token.equals(s.leaseOwner()))
                .isPresent();
        return ours ? new Write.Applied<>(Optional.empty()) : written;
    }

    /** Decides under a lease just taken; any result but a claim gives it back. */
    private ClaimResult holding(ClaimRequest request, Lease lease, LockState ownState, Instant now) {
        ClaimResult result;
        try {
            result = underLease(request, lease, ownState, now);
        } catch (RuntimeException e) {
            releaseQuietly(lease, now);
            throw e;
        }
        if (!(result instanceof ClaimResult.Claimed)) {
            releaseQuietly(lease, now);
        }
        return result;
    }

    /** Sends of a release we will not wait for: a transaction conflict lasts milliseconds. */
    private static final int RELEASE_SENDS = 3;

    /** The first pause between release sends; doubled for each further send (25, 50 ms). */
    private static final Duration RELEASE_BACKOFF = Duration.ofMillis(25);

    /** False when interrupted: the lease then simply ends at its deadline. */
    private boolean pause(Duration duration) {
        try {
            sleeper.sleep(duration);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Gives back a lease we will not use, so the group's next job need not wait for its deadline. The
     * release is conditional on our owner token, so sending it again is safe. If every send fails, the
     * condition on leaseUntil still frees the group at the invocation's deadline.
     */
    private void releaseQuietly(Lease lease, Instant now) {
        for (int send = 0; send < RELEASE_SENDS; send++) {
            try {
                store.releaseLease(lease, now);
                return;
            } catch (OutcomeUnknownException unknown) {
                // Not applied, or applied with the answer lost: either way another send is harmless,
                // after a pause that lets a conflicting transaction (milliseconds) finish.
                if (!pause(RELEASE_BACKOFF.multipliedBy(1L << send))) {
                    return;
                }
            }
        }
    }

    private ClaimResult underLease(ClaimRequest request, Lease lease, LockState known, Instant now) {
        LockState job = known;
        for (int pass = 0; pass < PASSES; pass++) {
            if (job == null || job.freshFor(request.key().scheduledTime())) {
                Write<LockState> fresh = claimFresh(SlotClaim.of(request, lease.ownerToken(), lease.fence(), now));
                if (fresh.applied()) {
                    return claimedOnSlot(request, lease.group(), fresh.value(), lease.ownerToken(), now);
                }
                job = fresh.value();
                if (job.deleted()) {
                    // An entity's tombstone (decision 0029, 8): checked in the slot claim's own write, so the
                    // shared-lease path refuses a deleted entity at no extra request.
                    return new EntityDeleted(job.id(), job.tombstone());
                }
                // A pause of this member job under a shared group's lease (decision 0040): the slot claim's
                // own write refused it, and its ALL_OLD item shows the mark. Sent on every shared-group
                // claim's first pass, fresh or not, so a retry bound for the run item meets it too.
                Optional<ClaimResult> paused = paused(request, job, now);
                if (paused.isPresent()) {
                    return paused.get();
                }
            }
            if (job.slot() != null && job.slot().running()) {
                Optional<LockState> live =
                        liveElsewhere(request, lease, job.slot().ownerToken(), now);
                if (live.isPresent()) {
                    return liveRun(request, job.slot(), live.get());
                }
                abandonSlot(request.key().jobId(), job.slot(), now);
                job = null;
                continue;
            }
            Optional<ClaimResult> decided = fromRunItem(request, lease, job, now);
            if (decided.isPresent()) {
                return decided.get();
            }
            job = null;
        }
        throw new PunctualException("claim of " + request.key() + " did not settle in " + PASSES
                + " passes under lease " + lease.fence() + " of " + lease.group());
    }

    /** Decides from the run item; empty means "state moved under us, look again". */
    private Optional<ClaimResult> fromRunItem(ClaimRequest request, Lease lease, LockState job, Instant now) {
        Optional<RunRecord> seen = store.readRun(request.key());
        if (seen.flatMap(RunRecord::skip).isPresent()) {
            // An operator's skip (decision 0033) refuses every trigger, forced or not: unskip comes first.
            return Optional.of(new OperatorSkipped(seen.get()));
        }
        RunStatus status = seen.map(RunRecord::status).orElse(RunStatus.SKIPPED);
        // Skips are not attempts (docs/ledger.md): a skipped or given-back occurrence starts at attempt 1.
        int attempts = seen.filter(r -> r.status() != RunStatus.SKIPPED)
                .map(RunRecord::attempts)
                .orElse(0);
        if (status == RunStatus.RUNNING) {
            // We hold the group now, so whoever wrote this in-flight record lost its lease: it died. In a
            // group of capacity N it may hold another slot (decision 0051): then it is alive.
            Optional<LockState> live = liveElsewhere(request, lease, seen.get().ownerToken(), now);
            if (live.isPresent()) {
                RunRecord run = seen.get();
                return Optional.of(
                        run.key().scheduledTime().equals(request.key().scheduledTime())
                                ? new ClaimResult.InProgressElsewhere(
                                        live.get().leaseHolder(), live.get().leaseUntil())
                                : new Busy(
                                        request.lockGroup(),
                                        live.get().leaseHolder(),
                                        live.get().leaseUntil()));
            }
            abandonRun(seen.get(), now);
            return Optional.empty();
        }
        if (status == RunStatus.SUCCEEDED && !request.force()) {
            return Optional.of(new ClaimResult.AlreadyDone(seen.get()));
        }
        if (status.retryable() && attempts >= request.maxAttempts() && !request.force()) {
            return Optional.of(new ClaimResult.AttemptsExhausted(seen.get()));
        }
        if (request.approvalRequired() && !approvedFor(request, seen)) {
            // Decision 0041: nothing written; the runtime records UNAPPROVED, which keeps an approval planned
            // since this read (the skip's condition), and claims again then.
            return Optional.of(new Unapproved(seen));
        }
        Claim claim = new Claim(
                request.key(),
                lease,
                attempts + 1,
                request.trigger(),
                request.schedulerAttempt(),
                now,
                false,
                Optional.ofNullable(job.cursor()),
                seen);
        RunRecord running = Records.running(claim, retention.expiryOf(RunStatus.RUNNING, now));
        Write<Optional<RunRecord>> written = ReadBack.write(
                "claim run item",
                () -> store.claimRun(running, seen),
                () -> store.readRun(request.key())
                        .filter(running::equals)
                        .map(r -> new Write.Applied<>(Optional.of(r))));
        // A rejection showing our own record means an earlier send (an SDK retry) was applied.
        boolean ours =
                written.applied() || written.value().filter(running::equals).isPresent();
        return ours ? Optional.of(new ClaimResult.Claimed(claim)) : Optional.empty();
    }

    /**
     * A claim that reads the run item may run an occurrence needing approval (decision 0041) when the item
     * carries an approval not yet used (the claim's record replaces it: used once), or when it records a
     * failed or abandoned attempt and the claim is not forced: a retry of the same occurrence (the
     * scheduler's, Lambda's, a catch-up's) is covered by the approval its first attempt used. A forced rerun
     * or replay of what already ran needs a new approval, which cannot be planned over a run: refused.
     */
    private static boolean approvedFor(ClaimRequest request, Optional<RunRecord> seen) {
        if (seen.flatMap(RunRecord::plannedApproval).isPresent()) {
            return true;
        }
        return !request.force()
                && seen.filter(r -> r.status().retryable() && r.attempts() > 0).isPresent();
    }

    private void abandonSlot(String jobId, Slot dead, Instant now) {
        RunRecord abandoned = abandonedRecord(Records.asRunning(dead, jobId, null), now);
        ReadBack.write(
                "record abandoned slot",
                () -> store.abandonSlot(jobId, dead, abandoned),
                () -> Optional.ofNullable(store.readLock(jobId).slot())
                        .filter(s -> !s.running() || !s.ownerToken().equals(dead.ownerToken()))
                        .map(s -> true));
    }

    private void abandonRun(RunRecord dead, Instant now) {
        RunRecord abandoned = abandonedRecord(dead, now);
        ReadBack.write(
                "record abandoned run",
                () -> store.abandonRun(dead, abandoned),
                () -> store.readRun(dead.key())
                        .filter(r -> r.status() != RunStatus.RUNNING
                                || !r.ownerToken().equals(dead.ownerToken()))
                        .map(r -> true));
    }

    private RunRecord abandonedRecord(RunRecord dead, Instant now) {
        return Records.ended(
                dead,
                RunStatus.ABANDONED,
                now,
                "ABANDONED: lease " + dead.fence() + " expired before the run completed",
                retention.expiryOf(RunStatus.ABANDONED, now));
    }

    /**
     * The commonest duplicate — a redelivery of the occurrence that just succeeded — is answered from
     * the rejected write's ALL_OLD item, without taking the lease or reading the run item. The slot's
     * SUCCEEDED was committed in the same transaction as the run item's.
     */
    private static Optional<RunRecord> succeededOnSlot(ClaimRequest request, LockState seen) {
        Slot slot = seen.slot();
        boolean duplicate = !request.force()
                && slot != null
                && slot.status() == RunStatus.SUCCEEDED
                && slot.occurrence().equals(request.key().scheduledTime());
        return duplicate ? Optional.of(Records.asFinished(slot, request.key().jobId())) : Optional.empty();
    }

    /** The job's own group, named after it: the fast path's one write covers lease and slot. */
    private static boolean ownGroup(ClaimRequest request) {
        return request.lockGroup().equals(request.key().jobId());
    }

    /** {@code leaseItem}: the group's item, or in a group of capacity N the slot the lease was taken on. */
    private static ClaimResult claimedOnSlot(
            ClaimRequest request, String leaseItem, LockState state, String token, Instant now) {
        Slot slot = state.slot();
        Lease lease = new Lease(leaseItem, token, slot.fence(), now, request.leaseUntil());
        Optional<Instant> cursor = Optional.ofNullable(state.cursor());
        return new ClaimResult.Claimed(new Claim(
                request.key(),
                lease,
                slot.attempts(),
                request.trigger(),
                request.schedulerAttempt(),
                now,
                true,
                cursor,
                Optional.empty(),
                request.approvalRequired()));
    }

    private static ClaimResult blocked(ClaimRequest request, LockState seen, Instant now) {
        Slot slot = seen.slot();
        boolean sameOccurrenceLive = seen.leaseHeldAt(now)
                && seen.leaseKind() == LeaseKind.JOB
                && slot != null
                && slot.running()
                && slot.occurrence().equals(request.key().scheduledTime())
                && slot.ownerToken().equals(seen.leaseOwner());
        if (sameOccurrenceLive) {
            return new ClaimResult.InProgressElsewhere(seen.leaseHolder(), seen.leaseUntil());
        }
        return paused(request, seen, now).orElseGet(() -> blockedBy(seen, now));
    }

    /**
     * The item's pause mark refuses this occurrence (NOT_PAUSED, decision 0040): the write that carried the
     * condition came back with the item, so the refusal is told at no extra request.
     */
    private static Optional<ClaimResult> paused(ClaimRequest request, LockState seen, Instant now) {
        return seen.pausedFor(request.key().scheduledTime(), now)
                ? Optional.of(new ClaimResult.Paused(seen.id(), seen.pause()))
                : Optional.empty();
    }

    private static ClaimResult blockedBy(LockState seen, Instant now) {
        if (seen.underMaintenanceAt(now)) {
            return new UnderMaintenance(seen.id(), seen.maintenance());
        }
        return new Busy(seen.id(), seen.leaseHolder(), seen.leaseUntil());
    }

    /** A rejection that shows our own token means an earlier send was applied (retry after a lost reply). */
    static Write<LockState> takeLease(LedgerStore store, LeaseGrant grant) {
        return ours(
                grant.token(),
                ReadBack.write(
                        "take lease " + grant.group(),
                        () -> store.takeLease(grant),
                        () -> Optional.of(store.readLock(grant.group()))
                                .filter(s -> grant.token().equals(s.leaseOwner()))
                                .map(Write.Applied::new)));
    }

    private Write<LockState> takeLeaseAndClaimFresh(LeaseGrant grant, SlotClaim claim) {
        return ours(
                grant.token(),
                ReadBack.write(
                        "take lease and claim " + claim.key(),
                        () -> store.takeLeaseAndClaimFresh(grant, claim),
                        () -> Optional.of(store.readLock(grant.group()))
                                .filter(s -> grant.token().equals(s.leaseOwner()))
                                .map(Write.Applied::new)));
    }

    private Write<LockState> claimFresh(SlotClaim claim) {
        Write<LockState> written = ReadBack.write(
                "claim " + claim.key(),
                () -> store.claimFresh(claim),
                () -> Optional.of(store.readLock(claim.key().jobId()))
                        .filter(s -> ourSlot(s, claim.token()))
                        .map(Write.Applied::new));
        return ourSlot(written.value(), claim.token()) ? new Write.Applied<>(written.value()) : written;
    }

    private static boolean ourSlot(LockState state, String token) {
        return state.slot() != null && token.equals(state.slot().ownerToken());
    }

    private static Write<LockState> ours(String token, Write<LockState> written) {
        return token.equals(written.value().leaseOwner()) ? new Write.Applied<>(written.value()) : written;
    }
}
