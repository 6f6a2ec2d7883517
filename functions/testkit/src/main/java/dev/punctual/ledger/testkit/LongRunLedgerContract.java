package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.ledger.ChunkOutcome;
import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ChunkWrite;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LongRunLedger;
import dev.punctual.ledger.LongRunLedger.Noted;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Summaries;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the ledger keeps of a long occurrence (decision 0039), run against every store: the execution
 * noted beside the run item and one record per chunk, every write fenced by the claim's lease. Leases are
 * real: each test claims its occurrence through the ledger, and moves a fence by letting the lease end on
 * the clock and claiming again.
 */
public abstract class LongRunLedgerContract {

    protected static final Instant START = Instant.parse("2026-11-29T06:00:00Z");

    /** An hour before the clock starts, so every occurrence a test names has come due. */
    protected static final Instant OCCURRENCES_FROM = START.minus(Duration.ofHours(1));

    protected static final Duration LEASE = Duration.ofMinutes(5);

    /** Threads racing one chunk, as redeliveries of one chunk's invocation would. */
    private static final int TWINS = 8;

    protected final MutableClock clock = new MutableClock(START);
    protected final String prefix = SuitePrefix.fresh('l');
    protected final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test; each test uses its own job ids, so one table may serve a whole class. */
    protected abstract LedgerStore store();

    /** The same data as {@link #store()}, each request through the plan's faults. */
    protected abstract LedgerStore faultyStore(FaultPlan plan);

    /** The store racing threads share; the same data as {@link #store()}. */
    protected LedgerStore concurrentStore() {
        return store();
    }

    private RunLedger ledger() {
        return ledger(store());
    }

    private RunLedger ledger(LedgerStore over) {
        return new LedgerEngine(over, clock, tokens, Retention.DEFAULT, clock::advance);
    }

    private String job(String name) {
        return prefix + "-" + name;
    }

    private static RunKey key(String job, int minute) {
        return new RunKey(job, OCCURRENCES_FROM.plus(Duration.ofMinutes(minute)));
    }

    private Claim claim(RunLedger ledger, RunKey key) {
        return claimed(
                ledger.claim(ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(LEASE))));
    }

    /** The lease ends on the clock, and a new claim of the occurrence takes the group with the next fence. */
    private Claim takenOver(RunLedger ledger, Claim old) {
        clock.advance(Duration.between(clock.peek(), old.lease().expiresAt()).plusSeconds(1));
        Claim next = claim(ledger, old.key());
        assertThat(next.fence()).as("the new claim's fence").isGreaterThan(old.fence());
        return next;
    }

    private static Claim claimed(ClaimResult result) {
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    private ExecutionRecord started(Claim claim) {
        String name = "punctual-test-" + claim.key().jobId() + "-f" + claim.fence();
        return new ExecutionRecord(
                claim.key(),
                name,
                "arn:aws:states:us-east-1:123456789012:execution:punctual-test:" + name,
                claim.fence(),
                clock.peek(),
                ExecutionRecord.NOT_PLANNED,
                null);
    }

    private static ChunkRecord recorded(ChunkWrite write) {
        assertThat(write).isInstanceOf(ChunkWrite.Recorded.class);
        return ((ChunkWrite.Recorded) write).record();
    }

    // ---- The execution ---------------------------------------------------------------------------------

    @Test
    void execution_notedUnderItsClaimsLease_isReadBackAsNoted_withTheRunItemsRetention() {
        RunLedger ledger = ledger();
        RunKey key = key(job("close"), 0);
        Claim claim = claim(ledger, key);
        ExecutionRecord execution = started(claim);
        Optional<ExecutionRecord> before = ledger.longRuns().execution(key);

        Noted noted = ledger.longRuns().noteExecution(claim.lease(), execution);

        assertThat(before).isEmpty();
        assertThat(noted).isEqualTo(Noted.NOTED);
        ExecutionRecord stored = ledger.longRuns().execution(key).orElseThrow();
        assertThat(stored.key()).isEqualTo(key);
        assertThat(stored.name()).isEqualTo(execution.name());
        assertThat(stored.arn()).isEqualTo(execution.arn());
        assertThat(stored.fence()).isEqualTo(claim.fence());
        assertThat(stored.startedAt()).isEqualTo(clock.peek());
        assertThat(stored.isPlanned()).isFalse();
        assertThat(stored.expiresAt())
                .as("as the run item's while it runs")
                .isEqualTo(Retention.DEFAULT.expiryOf(RunStatus.RUNNING, clock.peek()));
    }

    @Test
    void planStepsNote_replacesTheStartersNote_withThePlannedCount_andSendingItAgainIsHarmless() {
        RunLedger ledger = ledger();
        RunKey key = key(job("close"), 0);
        Claim claim = claim(ledger, key);
        LongRunLedger longRuns = ledger.longRuns();
        longRuns.noteExecution(claim.lease(), started(claim));
        clock.advance(Duration.ofSeconds(3));

        ExecutionRecord planned = longRuns.execution(key).orElseThrow().withPlanned(12);
        Noted first = longRuns.noteExecution(claim.lease(), planned);
        Noted again = longRuns.noteExecution(claim.lease(), planned);

        assertThat(first).isEqualTo(Noted.NOTED);
        assertThat(again).isEqualTo(Noted.NOTED);
        assertThat(longRuns.execution(key)).contains(planned);
        assertThat(longRuns.execution(key).orElseThrow().planned()).isEqualTo(12);
    }

    @Test
    void recentExecutions_areTheNewestOccurrencesFirst_ofThatSubjectOnly_atMostTheLimit() {
        RunLedger ledger = ledger();
        String job = job("close");
        for (int minute : List.of(0, 10, 20)) {
            Claim claim = claim(ledger, key(job, minute));
            ledger.longRuns().noteExecution(claim.lease(), started(claim));
            ledger.complete(claim, new Outcome.Succeeded(null));
        }
        Claim entity = claim(ledger, key(job + ":acme", 30));
        ledger.longRuns().noteExecution(entity.lease(), started(entity));

        List<ExecutionRecord> recent = ledger.longRuns().recentExecutions(job, 2);

        assertThat(recent)
                .extracting(e -> e.key().scheduledTime())
                .containsExactly(key(job, 20).scheduledTime(), key(job, 10).scheduledTime());
        assertThat(ledger.longRuns().recentExecutions(job + ":acme", 5))
                .singleElement()
                .satisfies(e -> assertThat(e.key().jobId()).isEqualTo(job + ":acme"));
        assertThat(ledger.longRuns().recentExecutions(job("none"), 5)).isEmpty();
    }

    @Test
    void note_underALeaseThatEnded_isFenced_andWritesNothing() {
        RunLedger ledger = ledger();
        RunKey key = key(job("close"), 0);
        Claim claim = claim(ledger, key);
        clock.advance(LEASE);

        Noted noted = ledger.longRuns().noteExecution(claim.lease(), started(claim));

        assertThat(noted).isEqualTo(Noted.FENCED);
        assertThat(ledger.longRuns().execution(key)).isEmpty();
    }

    @Test
    void note_underALeaseTakenOverByANewClaim_isFenced_andLeavesTheNewClaimsNote() {
        RunLedger ledger = ledger();
        RunKey key = key(job("close"), 0);
        Claim old = claim(ledger, key);
        ledger.longRuns().noteExecution(old.lease(), started(old));
        Claim next = takenOver(ledger, old);
        ExecutionRecord nextsExecution = started(next);
        ledger.longRuns().noteExecution(next.lease(), nextsExecution);

        // The old execution's plan step, still running, notes its count under the old claim's lease.
        Noted late = ledger.longRuns().noteExecution(old.lease(), started(old).withPlanned(3));

        assertThat(late).isEqualTo(Noted.FENCED);
        ExecutionRecord stored = ledger.longRuns().execution(key).orElseThrow();
        assertThat(stored.name()).isEqualTo(nextsExecution.name());
        assertThat(stored.fence()).isEqualTo(next.fence());
        assertThat(stored.isPlanned()).isFalse();
    }

    @Test
    void note_ofARecordUnderAnotherClaimsFence_isRefused_asIsAMaintenanceHoldsLease() {
        RunLedger ledger = ledger();
        RunKey key = key(job("close"), 0);
        Claim claim = claim(ledger, key);
        ExecutionRecord otherFence = new ExecutionRecord(key, "x", "arn:x", claim.fence() + 1, START, -1, null);
        Lease hold = new Lease(claim.lease().group(), "operator", Lease.NO_FENCE, START, START.plus(LEASE));

        assertThatThrownBy(() -> ledger.longRuns().noteExecution(claim.lease(), otherFence))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fence");
        assertThatThrownBy(() -> ledger.longRuns().recordChunk(hold, key, "a", new ChunkOutcome.Succeeded(null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maintenance hold");
        assertThatThrownBy(
                        () -> ledger.longRuns().recordChunk(claim.lease(), key, "", new ChunkOutcome.Succeeded(null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunk key");
        assertThat(ledger.longRuns().execution(key)).isEmpty();
    }

    // ---- Chunks ----------------------------------------------------------------------------------------

    @Test
    void chunkSuccess_isRecordedOnce_aSecondSuccessOrAFailureAfterItIsAlreadySucceeded_andChangesNothing() {
        RunLedger ledger = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim claim = claim(ledger, key);
        LongRunLedger longRuns = ledger.longRuns();

        ChunkRecord first = recorded(
                longRuns.recordChunk(claim.lease(), key, "merchant-7", new ChunkOutcome.Succeeded("42 payouts")));
        clock.advance(Duration.ofSeconds(5));
        ChunkWrite second = longRuns.recordChunk(claim.lease(), key, "merchant-7", new ChunkOutcome.Succeeded("other"));
        ChunkWrite failure = longRuns.recordChunk(claim.lease(), key, "merchant-7", new ChunkOutcome.Failed("late"));

        assertThat(first.status()).isEqualTo(ChunkRecord.Status.SUCCEEDED);
        assertThat(first.attempts()).isEqualTo(1);
        assertThat(first.fence()).isEqualTo(claim.fence());
        assertThat(first.at()).isEqualTo(START);
        assertThat(first.summary()).isEqualTo("42 payouts");
        assertThat(first.error()).isNull();
        assertThat(first.expiresAt()).isEqualTo(Retention.DEFAULT.expiryOf(RunStatus.SUCCEEDED, START));
        assertThat(second).isEqualTo(new ChunkWrite.AlreadySucceeded(first));
        assertThat(failure).isEqualTo(new ChunkWrite.AlreadySucceeded(first));
        assertThat(longRuns.chunk(key, "merchant-7")).contains(first);
    }

    @Test
    void failedAttempts_areCountedWithTheirLastError_thenASuccessIsRecordedWithOneAttemptMore() {
        RunLedger ledger = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim claim = claim(ledger, key);
        LongRunLedger longRuns = ledger.longRuns();

        ChunkRecord one = recorded(longRuns.recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Failed("timeout")));
        clock.advance(Duration.ofSeconds(2));
        ChunkRecord two = recorded(longRuns.recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Failed("503")));
        clock.advance(Duration.ofSeconds(4));
        ChunkRecord three = recorded(longRuns.recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Succeeded(null)));

        assertThat(one.status()).isEqualTo(ChunkRecord.Status.FAILED);
        assertThat(one.attempts()).isEqualTo(1);
        assertThat(one.expiresAt()).isEqualTo(Retention.DEFAULT.expiryOf(RunStatus.FAILED, START));
        assertThat(two.attempts()).isEqualTo(2);
        assertThat(two.error()).isEqualTo("503");
        assertThat(two.at()).isEqualTo(START.plusSeconds(2));
        assertThat(three.status()).isEqualTo(ChunkRecord.Status.SUCCEEDED);
        assertThat(three.attempts()).isEqualTo(3);
        assertThat(three.error()).as("a success keeps no error").isNull();
        assertThat(three.at()).isEqualTo(START.plusSeconds(6));
        assertThat(longRuns.chunk(key, "m1")).contains(three);
    }

    @Test
    void chunkWrite_afterTheFenceMoved_isFenced_andWritesNothing_whileTheNewClaimRecordsOnTopOfTheOld() {
        RunLedger ledger = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim old = claim(ledger, key);
        LongRunLedger longRuns = ledger.longRuns();
        ChunkRecord failedOnce = recorded(longRuns.recordChunk(old.lease(), key, "m1", new ChunkOutcome.Failed("x")));
        Claim next = takenOver(ledger, old);

        ChunkWrite staleRetry = longRuns.recordChunk(old.lease(), key, "m1", new ChunkOutcome.Succeeded(null));
        ChunkWrite staleFirst = longRuns.recordChunk(old.lease(), key, "m2", new ChunkOutcome.Succeeded(null));
        ChunkRecord resumed = recorded(longRuns.recordChunk(next.lease(), key, "m1", new ChunkOutcome.Succeeded(null)));

        assertThat(staleRetry).isInstanceOf(ChunkWrite.Fenced.class);
        assertThat(staleFirst).isInstanceOf(ChunkWrite.Fenced.class);
        assertThat(longRuns.chunk(key, "m2")).isEmpty();
        assertThat(failedOnce.fence()).isEqualTo(old.fence());
        assertThat(resumed.attempts())
                .as("chunk records are per occurrence, not per claim")
                .isEqualTo(2);
        assertThat(resumed.fence()).isEqualTo(next.fence());
    }

    @Test
    void chunkWrite_afterTheLeaseEnded_isFenced_evenWithNoNewClaim() {
        RunLedger ledger = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim claim = claim(ledger, key);
        clock.advance(LEASE);

        ChunkWrite late = ledger.longRuns().recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Succeeded(null));

        assertThat(late).isInstanceOf(ChunkWrite.Fenced.class);
        assertThat(ledger.longRuns().chunk(key, "m1")).isEmpty();
        assertThat(ledger.longRuns().chunks(key)).isEmpty();
    }

    @Test
    void chunks_listsEveryRecordOfTheOccurrence_inKeyOrder_acrossPages() {
        RunLedger ledger = ledger();
        RunKey key = key(job("index"), 0);
        Claim claim = claim(ledger, key);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            keys.add("rows-" + (char) ('a' + i) + "-" + i);
        }
        keys.addAll(List.of("A.1", "Z@x", "b:2", "_under", "0=first", "c+d"));
        List<String> shuffled = new ArrayList<>(keys);
        Collections.shuffle(shuffled, new Random(39));
        for (String chunk : shuffled) {
            ChunkOutcome outcome = chunk.hashCode() % 3 == 0
                    ? new ChunkOutcome.Failed("e-" + chunk)
                    : new ChunkOutcome.Succeeded("s-" + chunk);
            recorded(ledger.longRuns().recordChunk(claim.lease(), key, chunk, outcome));
        }

        List<ChunkRecord> all = ledger.longRuns().chunks(key);

        assertThat(all)
                .extracting(ChunkRecord::chunk)
                .containsExactlyElementsOf(keys.stream().sorted().toList());
        assertThat(all).allSatisfy(c -> {
            assertThat(c.key()).isEqualTo(key);
            assertThat(c.attempts()).isEqualTo(1);
            assertThat(Optional.ofNullable(c.summary()).orElse(c.error())).endsWith("-" + c.chunk());
        });
        assertThat(ledger.longRuns().chunks(key(job("index"), 1)))
                .as("another occurrence")
                .isEmpty();
    }

    @Test
    void chunkRecords_ofTwoOccurrencesAndOfAnEntity_areKeptApart() {
        RunLedger ledger = ledger();
        String job = job("tenant");
        RunKey first = key(job, 0);
        RunKey second = key(job, 1);
        RunKey entity = key(job + ":acme", 0);
        LongRunLedger longRuns = ledger.longRuns();

        Claim one = claim(ledger, first);
        recorded(longRuns.recordChunk(one.lease(), first, "a", new ChunkOutcome.Succeeded("first")));
        ledger.complete(one, new Outcome.Succeeded(null));
        Claim two = claim(ledger, second);
        recorded(longRuns.recordChunk(two.lease(), second, "a", new ChunkOutcome.Failed("second")));
        recorded(longRuns.recordChunk(two.lease(), second, "b", new ChunkOutcome.Succeeded("second")));
        Claim acme = claimed(ledger.claim(
                ClaimRequest.scheduled(entity, 1, 3, clock.peek().plus(LEASE)).onEntityLease(job, Optional.empty())));
        recorded(longRuns.recordChunk(acme.lease(), entity, "a", new ChunkOutcome.Failed("acme")));
        longRuns.noteExecution(acme.lease(), started(acme));

        assertThat(acme.lease().group()).as("an entity's own lease").isEqualTo(entity.jobId());
        assertThat(longRuns.chunks(first))
                .extracting(ChunkRecord::chunk, ChunkRecord::summary)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", "first"));
        assertThat(longRuns.chunks(second)).extracting(ChunkRecord::chunk).containsExactly("a", "b");
        assertThat(longRuns.chunk(second, "a").orElseThrow().error()).isEqualTo("second");
        assertThat(longRuns.chunks(entity)).extracting(ChunkRecord::error).containsExactly("acme");
        assertThat(longRuns.execution(entity).orElseThrow().fence()).isEqualTo(acme.fence());
        assertThat(longRuns.execution(first))
                .as("the job's own occurrence noted none")
                .isEmpty();
    }

    @Test
    void chunkError_isStoredSanitised_onOneLine_withSecretsMasked_andCut() {
        RunLedger ledger = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim claim = claim(ledger, key);
        String raw = "PayoutFailed: bank said no\n\tkey AKIAABCDEFGHIJKLMNOP leaked\n" + "x".repeat(2 * Summaries.MAX);

        ChunkRecord failed =
                recorded(ledger.longRuns().recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Failed(raw)));
        ChunkRecord done = recorded(ledger.longRuns()
                .recordChunk(claim.lease(), key, "m2", new ChunkOutcome.Succeeded("ok\nfor AKIAABCDEFGHIJKLMNOP")));

        assertThat(failed.error()).isEqualTo(Summaries.sanitise(raw));
        assertThat(failed.error()).doesNotContain("\n", "AKIAABCDEFGHIJKLMNOP").contains("[REDACTED]");
        assertThat(failed.error()).hasSize(Summaries.MAX);
        assertThat(done.summary()).isEqualTo(Summaries.sanitise("ok\nfor AKIAABCDEFGHIJKLMNOP"));
        assertThat(ledger.longRuns().chunk(key, "m1")).contains(failed);
        assertThat(ledger.longRuns().chunk(key, "m2")).contains(done);
    }

    // ---- Unknown outcomes --------------------------------------------------------------------------------

    @Test
    void chunkWriteResponseLost_afterItApplied_isReadBack_asRecordedOnce() {
        RunLedger clean = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim claim = claim(clean, key);
        // The chunk's read, then its write applied and its answer lost, then anything sent again fails.
        FaultPlan plan = FaultPlan.scripted(Fault.NONE, Fault.AFTER_APPLY, Fault.NONE, Fault.BEFORE_SEND);

        ChunkWrite write = ledger(faultyStore(plan))
                .longRuns()
                .recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Succeeded("done"));

        assertThat(plan.injected(Fault.AFTER_APPLY)).isEqualTo(1);
        assertThat(plan.injected(Fault.BEFORE_SEND))
                .as("read back, not sent again")
                .isZero();
        ChunkRecord record = recorded(write);
        assertThat(record.attempts()).isEqualTo(1);
        assertThat(clean.longRuns().chunk(key, "m1")).contains(record);
    }

    @Test
    void chunkWriteLostBeforeSending_whileTheLeaseIsOurs_isSentAgain_andCountsOneAttempt() {
        RunLedger clean = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim claim = claim(clean, key);
        recorded(clean.longRuns().recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Failed("first")));
        FaultPlan plan = FaultPlan.scripted(Fault.NONE, Fault.BEFORE_SEND);

        ChunkWrite write = ledger(faultyStore(plan))
                .longRuns()
                .recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Failed("second"));

        assertThat(plan.injected(Fault.BEFORE_SEND)).isEqualTo(1);
        assertThat(recorded(write).attempts()).isEqualTo(2);
        assertThat(clean.longRuns().chunk(key, "m1").orElseThrow().attempts()).isEqualTo(2);
    }

    @Test
    void chunkWriteResponseLost_atAnInstantFinerThanAMillisecond_isStillReadBackAsOursRecorded() {
        // A Lambda's clock reads microseconds; the stored record keeps milliseconds (and its expiry seconds),
        // so the read-back must compare what was stored, or it takes our own write for another's success
        // (the Jepsen-style suite's CHUNK_TWICE and LONG_INCOMPLETE, found at 2026-12-07).
        RunLedger clean = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim claim = claim(clean, key);
        clock.advance(Duration.ofNanos(123_456_789));
        FaultPlan plan = FaultPlan.scripted(Fault.NONE, Fault.AFTER_APPLY, Fault.NONE, Fault.BEFORE_SEND);

        ChunkWrite write = ledger(faultyStore(plan))
                .longRuns()
                .recordChunk(claim.lease(), key, "m1", new ChunkOutcome.Succeeded("done"));

        assertThat(plan.injected(Fault.AFTER_APPLY)).isEqualTo(1);
        ChunkRecord record = recorded(write);
        assertThat(record.attempts()).isEqualTo(1);
        assertThat(clean.longRuns().chunk(key, "m1")).contains(record);
    }

    @Test
    void chunkWriteOfUnknownOutcome_afterTheFenceMoved_isReadBackAsFenced_andWritesNothing() {
        RunLedger clean = ledger();
        RunKey key = key(job("payouts"), 0);
        Claim old = claim(clean, key);
        takenOver(clean, old);
        FaultPlan plan = FaultPlan.scripted(Fault.NONE, Fault.THROTTLE);

        ChunkWrite write = ledger(faultyStore(plan))
                .longRuns()
                .recordChunk(old.lease(), key, "m1", new ChunkOutcome.Succeeded(null));

        assertThat(plan.injected(Fault.THROTTLE)).isEqualTo(1);
        assertThat(write).isInstanceOf(ChunkWrite.Fenced.class);
        assertThat(clean.longRuns().chunk(key, "m1")).isEmpty();
    }

    @Test
    void noteResponseLost_afterItApplied_isReadBack_asNoted_withoutSendingAgain() {
        RunLedger clean = ledger();
        RunKey key = key(job("close"), 0);
        Claim claim = claim(clean, key);
        FaultPlan plan = FaultPlan.scripted(Fault.AFTER_APPLY, Fault.NONE, Fault.BEFORE_SEND);
        ExecutionRecord execution = started(claim);

        Noted noted = ledger(faultyStore(plan)).longRuns().noteExecution(claim.lease(), execution);

        assertThat(plan.injected(Fault.AFTER_APPLY)).isEqualTo(1);
        assertThat(plan.injected(Fault.BEFORE_SEND))
                .as("read back, not sent again")
                .isZero();
        assertThat(noted).isEqualTo(Noted.NOTED);
        assertThat(clean.longRuns().execution(key).orElseThrow().name()).isEqualTo(execution.name());
    }

    @Test
    void noteOfUnknownOutcome_underALeaseThatEnded_isReadBackAsFenced() {
        RunLedger clean = ledger();
        RunKey key = key(job("close"), 0);
        Claim claim = claim(clean, key);
        clock.advance(LEASE);
        FaultPlan plan = FaultPlan.scripted(Fault.BEFORE_SEND);

        Noted noted = ledger(faultyStore(plan)).longRuns().noteExecution(claim.lease(), started(claim));

        assertThat(plan.injected(Fault.BEFORE_SEND)).isEqualTo(1);
        assertThat(noted).isEqualTo(Noted.FENCED);
        assertThat(clean.longRuns().execution(key)).isEmpty();
    }

    // ---- Races -------------------------------------------------------------------------------------------

    @Test
    void twinsRecordingTheSameChunksSuccessAtOnce_exactlyOneIsRecorded_theRestAlreadySucceeded() throws Exception {
        RunLedger ledger = ledger(concurrentStore());
        RunKey key = key(job("race"), 0);
        Claim claim = claim(ledger, key);

        for (String chunk : List.of("c1", "c2", "c3")) {
            List<ChunkWrite> writes = race(() ->
                    ledger.longRuns().recordChunk(claim.lease(), key, chunk, new ChunkOutcome.Succeeded("by a twin")));

            assertThat(writes).filteredOn(ChunkWrite.Recorded.class::isInstance).hasSize(1);
            assertThat(writes)
                    .filteredOn(ChunkWrite.AlreadySucceeded.class::isInstance)
                    .hasSize(TWINS - 1);
            ChunkRecord stored = ledger.longRuns().chunk(key, chunk).orElseThrow();
            assertThat(stored.attempts()).isEqualTo(1);
            assertThat(writes).contains(new ChunkWrite.Recorded(stored));
        }
    }

    @Test
    void twinsRecordingFailuresAtOnce_eachAttemptIsCountedOnce() throws Exception {
        RunLedger ledger = ledger(concurrentStore());
        RunKey key = key(job("race"), 0);
        Claim claim = claim(ledger, key);

        List<ChunkWrite> writes =
                race(() -> ledger.longRuns().recordChunk(claim.lease(), key, "c1", new ChunkOutcome.Failed("flaky")));

        assertThat(writes)
                .extracting(w -> recorded(w).attempts())
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.IntStream.rangeClosed(1, TWINS).boxed().toList());
        assertThat(ledger.longRuns().chunk(key, "c1").orElseThrow().attempts()).isEqualTo(TWINS);
    }

    /** {@link #TWINS} real threads released at once, each sending one write. */
    private static List<ChunkWrite> race(java.util.concurrent.Callable<ChunkWrite> write) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(TWINS);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<ChunkWrite>> twins = new ArrayList<>();
            for (int i = 0; i < TWINS; i++) {
                twins.add(pool.submit(() -> {
                    go.await();
                    return write.call();
                }));
            }
            go.countDown();
            List<ChunkWrite> writes = new ArrayList<>();
            for (Future<ChunkWrite> twin : twins) {
                writes.add(twin.get(2, TimeUnit.MINUTES));
            }
            return writes;
        } finally {
            pool.shutdownNow();
        }
    }
}
