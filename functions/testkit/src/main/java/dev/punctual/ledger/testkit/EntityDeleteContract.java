package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.EntityDeleted;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.spi.LedgerEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Deleting an entity (decision 0029, 8), run against every store: the delete's tombstone on the entity's
 * item {@code job:entity} refuses every later claim of its occurrences, on its own lease and on the job's
 * shared one, in the write that claims; a run already started finishes; a put again clears it.
 */
public abstract class EntityDeleteContract extends EntityLeaseContract {

    private static final String DELETER = "team-service";

    @Test
    void claimOfADeletedEntity_isRefusedAsDeleted_onEveryPath_andLeavesNoRunItemAndNoLeaseHeld() {
        Tenants t = tenants();
        RunKey t0 = t.of("acme", 0);
        RunKey t1 = t.of("acme", 1);
        t.succeed(claimed(t.claimGeneral(t0)));
        EntityTombstone stone = t.ledger.tombstoneEntity(t1.jobId(), DELETER);

        EntityDeleted refused = new EntityDeleted(t1.jobId(), stone);
        assertThat(t.claimInOrder(t1)).as("in order, one request").isEqualTo(refused);
        assertThat(t.claimGeneral(t1)).as("the general path").isEqualTo(refused);
        assertThat(t.claimOnSharedLease(t1)).as("under the job's shared lease").isEqualTo(refused);

        assertThat(stone).isEqualTo(new EntityTombstone(START, DELETER));
        assertThat(t.ledger.run(t1)).as("no run item").isEmpty();
        assertThat(t.ledger.cursor(t1.jobId())).contains(t0.scheduledTime());
        assertThat(t.ledger.lock(t1.jobId()).leaseHeldAt(clock.peek()))
                .as("the entity's own lease")
                .isFalse();
        assertThat(t.claimOnSharedLease(t.of("beta", 1)))
                .as("the shared group's lease was given back")
                .isInstanceOf(ClaimResult.Claimed.class);
    }

    /**
     * The run in flight finishes: it was a delivery of a schedule that still existed when it was claimed,
     * its effects may be done already, and refusing its completion would record a failure (and a retry
     * that the tombstone then refuses) for work that happened. Only claims after the delete are refused.
     */
    @Test
    void tombstone_doesNotDisturbARunAlreadyStarted_itsCompletionCommits_andTheNextOccurrenceIsRefused() {
        Tenants t = tenants();
        RunKey own = t.of("acme", 0);
        RunKey shared = t.of("beta", 0);
        Claim ownRun = claimed(t.claimGeneral(own));
        Claim sharedRun = claimed(t.claimOnSharedLease(shared));

        t.ledger.tombstoneEntity(own.jobId(), DELETER);
        t.ledger.tombstoneEntity(shared.jobId(), DELETER);

        assertThat(t.succeed(ownRun)).isInstanceOf(CompletionResult.Completed.class);
        assertThat(t.succeed(sharedRun)).isInstanceOf(CompletionResult.Completed.class);
        assertThat(t.ledger.run(own).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(t.ledger.run(shared).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(t.ledger.lock(own.jobId()).deleted())
                .as("the commit keeps the tombstone")
                .isTrue();
        assertThat(t.claimInOrder(t.of("acme", 1))).isInstanceOf(EntityDeleted.class);
        assertThat(t.claimOnSharedLease(t.of("beta", 1))).isInstanceOf(EntityDeleted.class);
    }

    @Test
    void putAgain_clearsTheTombstone_andTheNextOccurrenceIsClaimedInOrderFromTheCursor() {
        Tenants t = tenants();
        RunKey t0 = t.of("acme", 0);
        RunKey t1 = t.of("acme", 1);
        t.succeed(claimed(t.claimGeneral(t0)));
        t.ledger.tombstoneEntity(t1.jobId(), DELETER);
        assertThat(t.claimInOrder(t1)).isInstanceOf(EntityDeleted.class);

        boolean cleared = t.ledger.clearEntityTombstone(t1.jobId());

        assertThat(cleared).isTrue();
        assertThat(t.ledger.clearEntityTombstone(t1.jobId()))
                .as("nothing left to clear")
                .isFalse();
        Claim next = claimed(t.claimInOrder(t1));
        assertThat(next.onSlot()).as("the one-request claim").isTrue();
        assertThat(next.cursorBefore()).contains(t0.scheduledTime());
        assertThat(t.succeed(next)).isInstanceOf(CompletionResult.Completed.class);
    }

    @Test
    void clearingAnEntityNeverDeleted_writesNothing() {
        Tenants t = tenants();
        String fresh = t.of("new", 0).jobId();

        assertThat(t.ledger.clearEntityTombstone(fresh)).isFalse();
        assertThat(t.ledger.lock(fresh)).as("no bare item created").isEqualTo(LockState.absent(fresh));
    }

    @Test
    void entityWriteLock_keepsASecondWriterOut_untilReleasedOrItsTermPassed_andOnlyItsOwnerRenewsIt() {
        Tenants t = tenants();
        String acme = t.of("acme", 0).jobId();
        Duration term = Duration.ofMinutes(2);

        assertThat(t.ledger.takeEntityWrite(acme, "put-1", term)).isTrue();
        assertThat(t.ledger.takeEntityWrite(acme, "put-1", term))
                .as("its owner again: a resend")
                .isTrue();
        assertThat(t.ledger.takeEntityWrite(acme, "delete-1", term)).isFalse();
        assertThat(t.ledger.renewEntityWrite(acme, "delete-1", term)).isFalse();
        clock.advance(Duration.ofMinutes(1));
        assertThat(t.ledger.renewEntityWrite(acme, "put-1", term)).isTrue();
        clock.advance(Duration.ofMinutes(1));
        assertThat(t.ledger.takeEntityWrite(acme, "delete-1", term))
                .as("renewed a minute ago for two: still held")
                .isFalse();

        t.ledger.releaseEntityWrite(acme, "delete-1"); // not its own: nothing
        assertThat(t.ledger.takeEntityWrite(acme, "delete-1", term)).isFalse();
        t.ledger.releaseEntityWrite(acme, "put-1");
        assertThat(t.ledger.takeEntityWrite(acme, "delete-1", term)).isTrue();

        clock.advance(term.plusMillis(1));
        assertThat(t.ledger.takeEntityWrite(acme, "put-2", term))
                .as("its holder's term passed")
                .isTrue();
        assertThat(t.ledger.renewEntityWrite(acme, "delete-1", term))
                .as("the lapsed holder cannot take it back")
                .isFalse();
        assertThat(t.ledger.lock(acme).deleted()).as("the lock is no tombstone").isFalse();
        assertThat(t.ledger.lock(acme).leaseOwner()).as("nor a lease").isNull();
    }

    @Test
    void tombstoningTwice_isIdempotent_andKeepsTheFirstDeletesMark() {
        Tenants t = tenants();
        String acme = t.of("acme", 0).jobId();
        EntityTombstone first = t.ledger.tombstoneEntity(acme, "alice");
        clock.advance(Duration.ofMinutes(3));

        EntityTombstone second = t.ledger.tombstoneEntity(acme, "bob");

        assertThat(second).isEqualTo(first);
        assertThat(t.ledger.lock(acme).tombstone()).isEqualTo(new EntityTombstone(START, "alice"));
    }

    @Test
    void tombstone_ofAJobsOwnId_isRefused_namingTheLedgerIdAccepted() {
        Tenants t = tenants();

        assertThatThrownBy(() -> t.ledger.tombstoneEntity(t.job, DELETER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ledgerId")
                .hasMessageContaining("job:entity");
        assertThat(t.ledger.lock(t.job).deleted()).isFalse();
    }

    /** One claimant's view of a round: when it asked, when it was answered, and what it was told. */
    private record Seen(long sent, long answered, ClaimResult result, CompletionResult completion) {}

    /**
     * Each round, two claimants race one occurrence of a fresh entity while its delete is sent. Exactly
     * one order is observed per claim: a claim sent after the tombstone was answered is never granted, a
     * claim answered before the tombstone was sent is never refused as deleted, a granted claim still
     * completes, and the run item exists exactly when a claim was granted.
     */
    @Test
    void deleteRacingClaims_eachClaimSeesOneOrder_grantedAndRunOrRefusedAsDeleted_neverBoth() throws Exception {
        MutableClock ticking = new MutableClock(START, Duration.ofMillis(1));
        RunLedger ledger = new LedgerEngine(concurrentStore(), ticking, tokens, Retention.DEFAULT, ticking::advance);
        String job = job("tenant");
        AtomicLong order = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        int granted = 0;
        int refused = 0;
        try {
            for (int round = 0; round < rounds(); round++) {
                RunKey key = key(job + ":e" + round, 1);
                CountDownLatch go = new CountDownLatch(1);
                Future<long[]> delete = pool.submit(() -> {
                    go.await();
                    long sent = order.incrementAndGet();
                    ledger.tombstoneEntity(key.jobId(), DELETER);
                    return new long[] {sent, order.incrementAndGet()};
                });
                List<Future<Seen>> claimants = new ArrayList<>();
                for (int c = 0; c < 2; c++) {
                    claimants.add(pool.submit(() -> {
                        go.await();
                        ClaimRequest request = ClaimRequest.scheduled(
                                        key, 1, 3, ticking.peek().plus(Duration.ofHours(1)))
                                .onEntityLease(
                                        job, Optional.of(key.scheduledTime().minus(Duration.ofMinutes(1))));
                        long sent = order.incrementAndGet();
                        ClaimResult result = ledger.claim(request);
                        long answered = order.incrementAndGet();
                        CompletionResult done = result instanceof ClaimResult.Claimed c2
                                ? ledger.complete(c2.claim(), new Outcome.Succeeded(null))
                                : null;
                        return new Seen(sent, answered, result, done);
                    }));
                }
                go.countDown();
                long[] tombstone = delete.get(5, TimeUnit.MINUTES); // hang guards only
                List<Seen> seen = new ArrayList<>();
                for (Future<Seen> claimant : claimants) {
                    seen.add(claimant.get(5, TimeUnit.MINUTES));
                }

                List<Seen> grants = seen.stream()
                        .filter(s -> s.result() instanceof ClaimResult.Claimed)
                        .toList();
                assertThat(seen)
                        .as("round %d: each claim is told one thing", round)
                        .allMatch(s -> s.result() instanceof ClaimResult.Claimed
                                || s.result() instanceof EntityDeleted
                                || s.result() instanceof ClaimResult.InProgressElsewhere
                                || s.result() instanceof ClaimResult.AlreadyDone
                                || s.result() instanceof Busy);
                assertThat(grants).as("round %d: at most one grant", round).hasSizeLessThanOrEqualTo(1);
                assertThat(grants)
                        .as("round %d: a grant runs to its commit, sent before the tombstone was answered", round)
                        .allMatch(s -> s.completion() instanceof CompletionResult.Completed && s.sent() < tombstone[1]);
                assertThat(seen)
                        .as("round %d: refused as deleted only once the tombstone was sent", round)
                        .filteredOn(s -> s.result() instanceof EntityDeleted)
                        .allMatch(s -> s.answered() > tombstone[0]);
                assertThat(ledger.run(key).map(r -> r.status()))
                        .as("round %d: the run item exists exactly when a claim was granted", round)
                        .isEqualTo(grants.isEmpty() ? Optional.empty() : Optional.of(RunStatus.SUCCEEDED));
                RunKey later = key(key.jobId(), 2);
                assertThat(ledger.claim(ClaimRequest.scheduled(
                                        later, 1, 3, ticking.peek().plus(Duration.ofHours(1)))
                                .onEntityLease(job, Optional.empty())))
                        .as("round %d: after the delete", round)
                        .isInstanceOf(EntityDeleted.class);
                granted += grants.size();
                refused += (int) seen.stream()
                        .filter(s -> s.result() instanceof EntityDeleted)
                        .count();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(granted + refused).as("rounds decided by the race").isPositive();
    }
}
