package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.History;
import dev.punctual.ledger.HistoryQuery;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RunLedger#history} against every store: newest first, bounded, across Query pages, since an
 * instant, a missed range as one row, an occurrence in flight on the slot, an entity's own history. Each
 * test uses ids of its own, so one table may serve a class.
 */
public abstract class HistoryContract {

    /** Day 0's occurrence, 09:00 UTC; the clock starts after day 9's. */
    private static final Instant DAY_0 = Instant.parse("2026-11-20T09:00:00Z");

    private static final Duration DAY = Duration.ofDays(1);

    protected final MutableClock clock = new MutableClock(DAY_0.plus(DAY.multipliedBy(10)));
    private final String prefix = SuitePrefix.fresh('h');
    private final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test, with DynamoDB's own Query pages. */
    protected abstract LedgerStore store();

    /** The store under test over the same data, each Query page holding at most {@code page} items. */
    protected abstract LedgerStore store(int page);

    private RunLedger ledger() {
        return ledger(store());
    }

    private RunLedger ledger(LedgerStore store) {
        return new LedgerEngine(store, clock, tokens, Retention.DEFAULT, clock::advance);
    }

    private String job() {
        return prefix + "-report";
    }

    private static Instant day(int n) {
        return DAY_0.plus(DAY.multipliedBy(n));
    }

    private Claim claim(ClaimRequest request) {
        ClaimResult result = ledger().claim(request);
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    private ClaimRequest scheduled(String id, int day) {
        return ClaimRequest.scheduled(
                new RunKey(id, day(day)), 1, 3, clock.peek().plus(Duration.ofMinutes(5)));
    }

    /** A run of the day's occurrence that takes {@code took} and ends as {@code outcome}. */
    private void ran(String id, ClaimRequest request, Duration took, Outcome outcome) {
        Claim claim = claim(request);
        clock.advance(took);
        assertThat(ledger().complete(claim, outcome)).isInstanceOf(CompletionResult.Completed.class);
    }

    private void succeeded(String id, int day) {
        ran(id, scheduled(id, day), Duration.ofSeconds(2), new Outcome.Succeeded("records=1"));
    }

    private static List<Instant> occurrences(History history) {
        return history.rows().stream().map(r -> r.key().scheduledTime()).toList();
    }

    @Test
    void aJobThatNeverRan_hasAnEmptyHistory_andNoMore() {
        History history = ledger().history(job(), HistoryQuery.last(HistoryQuery.DEFAULT));

        assertThat(history.rows()).isEmpty();
        assertThat(history.more()).isFalse();
        assertThat(history.ledgerId()).isEqualTo(job());
    }

    @Test
    void history_listsNewestFirst_eachWithStatusReasonAttemptsDurationFenceAndTrigger() {
        String id = job();
        succeeded(id, 1);
        ran(id, scheduled(id, 2), Duration.ofSeconds(7), new Outcome.Failed("IllegalStateException: upstream down"));
        ledger().recordSkip(new RunKey(id, day(3)), Trigger.SCHEDULED, 2, SkipReason.LOCK_BUSY, "group busy");
        ran(id, scheduled(id, 4).forced(Trigger.MANUAL), Duration.ofSeconds(3), new Outcome.Succeeded("records=1"));

        History history = ledger().history(id, HistoryQuery.last(10));

        assertThat(occurrences(history)).containsExactly(day(4), day(3), day(2), day(1));
        assertThat(history.more()).isFalse();
        RunRecord manual = history.rows().get(0);
        assertThat(manual.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(manual.trigger()).isEqualTo(Trigger.MANUAL);
        assertThat(manual.duration()).contains(Duration.ofSeconds(3));
        RunRecord skipped = history.rows().get(1);
        assertThat(skipped.status()).isEqualTo(RunStatus.SKIPPED);
        assertThat(skipped.reason()).startsWith("LOCK_BUSY").contains("group busy");
        assertThat(skipped.attempts()).isZero();
        RunRecord failed = history.rows().get(2);
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.attempts()).isEqualTo(1);
        assertThat(failed.errorSummary()).contains("upstream down");
        assertThat(failed.duration()).contains(Duration.ofSeconds(7));
        assertThat(failed.trigger()).isEqualTo(Trigger.SCHEDULED);
        assertThat(failed.fence()).isGreaterThan(history.rows().get(3).fence());
    }

    @Test
    void last_n_returnsTheNNewest_andSaysMoreOnlyWhenOlderOnesAreStored() {
        String id = job();
        for (int d = 1; d <= 5; d++) {
            succeeded(id, d);
        }

        History three = ledger().history(id, HistoryQuery.last(3));
        History five = ledger().history(id, HistoryQuery.last(5));

        assertThat(occurrences(three)).containsExactly(day(5), day(4), day(3));
        assertThat(three.more()).isTrue();
        assertThat(occurrences(five)).containsExactly(day(5), day(4), day(3), day(2), day(1));
        assertThat(five.more()).isFalse();
    }

    @Test
    void aHistoryLongerThanOneQueryPage_isReadAcrossThePages_inOrder_andStopsAtTheBound() {
        String id = job();
        for (int d = 1; d <= 7; d++) {
            succeeded(id, d);
        }
        RunLedger pagedByTwo = ledger(store(2));

        History five = pagedByTwo.history(id, HistoryQuery.last(5));
        History all = pagedByTwo.history(id, HistoryQuery.last(7));

        assertThat(occurrences(five)).containsExactly(day(7), day(6), day(5), day(4), day(3));
        assertThat(five.more()).isTrue();
        assertThat(occurrences(all)).containsExactly(day(7), day(6), day(5), day(4), day(3), day(2), day(1));
        assertThat(all.more()).isFalse();
    }

    @Test
    void since_listsTheOccurrencesAtOrAfterIt_only() {
        String id = job();
        for (int d = 1; d <= 5; d++) {
            succeeded(id, d);
        }

        History since = ledger().history(id, HistoryQuery.since(day(3)));
        History sinceAfterTheLast = ledger().history(id, HistoryQuery.since(day(6)));

        assertThat(occurrences(since)).containsExactly(day(5), day(4), day(3));
        assertThat(since.more()).isFalse();
        assertThat(sinceAfterTheLast.rows()).isEmpty();
    }

    @Test
    void aMissedRange_isOneRow_withItsCountAndLastOccurrence() {
        String id = job();
        succeeded(id, 1);
        ledger().recordMissed(new RunKey(id, day(2)), day(5), 4);
        succeeded(id, 6);

        History history = ledger().history(id, HistoryQuery.last(10));

        assertThat(occurrences(history)).containsExactly(day(6), day(2), day(1));
        RunRecord range = history.rows().get(1);
        assertThat(range.status()).isEqualTo(RunStatus.MISSED);
        assertThat(range.missedCount()).isEqualTo(4);
        assertThat(range.missedUntil()).isEqualTo(day(5));
    }

    @Test
    void anOccurrenceInFlightOnTheSlot_showsAsRunning_newestFirst() {
        String id = job();
        succeeded(id, 1);
        Claim running = claim(scheduled(id, 2));

        History history = ledger().history(id, HistoryQuery.last(10));
        History onlyOne = ledger().history(id, HistoryQuery.last(1));

        assertThat(occurrences(history)).containsExactly(day(2), day(1));
        RunRecord inFlight = history.rows().getFirst();
        assertThat(inFlight.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(inFlight.fence()).isEqualTo(running.fence());
        assertThat(inFlight.trigger()).isEqualTo(Trigger.SCHEDULED);
        assertThat(occurrences(onlyOne)).containsExactly(day(2));
        assertThat(onlyOne.more()).isTrue();
        assertThat(ledger().history(id, HistoryQuery.since(day(3))).rows())
                .as("in flight but before since")
                .isEmpty();
    }

    @Test
    void anOccurrenceInFlightAfterASkipRecordedOnIt_showsAsRunning_once() {
        String id = job();
        ledger().recordSkip(new RunKey(id, day(2)), Trigger.SCHEDULED, 1, SkipReason.MAINTENANCE, "restore");
        claim(scheduled(id, 2));

        History history = ledger().history(id, HistoryQuery.last(10));

        assertThat(occurrences(history)).containsExactly(day(2));
        assertThat(history.rows().getFirst().status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void anEntitysHistory_isReadByItsLedgerId_apartFromItsJobs() {
        String entity = job() + ":tenant-1";
        succeeded(job(), 1);
        succeeded(entity, 2);
        succeeded(entity, 3);

        History ofEntity = ledger().history(entity, HistoryQuery.last(10));
        History ofJob = ledger().history(job(), HistoryQuery.last(10));

        assertThat(occurrences(ofEntity)).containsExactly(day(3), day(2));
        assertThat(ofEntity.rows()).allMatch(r -> r.key().jobId().equals(entity));
        assertThat(occurrences(ofJob)).containsExactly(day(1));
    }
}
