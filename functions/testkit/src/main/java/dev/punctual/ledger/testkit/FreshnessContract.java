package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The last success a completion notes on the job's lock item (decision 0042), run against every store: the
 * success's own completion writes it, in the write it already sends; nothing else moves it.
 */
public abstract class FreshnessContract {

    private static final Instant START = Instant.parse("2026-12-07T06:00:00Z");
    private static final Duration LEASE = Duration.ofMinutes(5);

    protected final MutableClock clock = new MutableClock(START);
    private final String prefix = SuitePrefix.fresh('f');
    private final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test; each test uses its own job ids, so one table may serve a whole class. */
    protected abstract LedgerStore store();

    private RunLedger ledger() {
        return new LedgerEngine(store(), clock, tokens, Retention.DEFAULT, d -> clock.advance(d));
    }

    private String job(String name) {
        return prefix + "-" + name;
    }

    private static RunKey key(String job, int hour) {
        return new RunKey(job, START.minus(Duration.ofHours(6)).plus(Duration.ofHours(hour)));
    }

    private ClaimRequest scheduled(RunKey key) {
        return ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(LEASE));
    }

    private static Claim claimed(ClaimResult result) {
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    @Test
    void aJobThatNeverSucceeded_hasNoLastSuccess() {
        RunLedger ledger = ledger();
        String job = job("new");
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 0)))), new Outcome.Failed("IOException: reset"));

        assertThat(ledger.lock(job).lastSuccess()).isEmpty();
    }

    @Test
    void aSuccess_notesItsCompletionTime_onTheJobsLockItem_andAFailureAfterItLeavesIt() {
        RunLedger ledger = ledger();
        String job = job("solo");
        Claim first = claimed(ledger.claim(scheduled(key(job, 0))));
        clock.advance(Duration.ofSeconds(40));
        Instant succeededAt = clock.peek();
        ledger.complete(first, new Outcome.Succeeded("ok"));

        clock.advance(Duration.ofHours(1));
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 1)))), new Outcome.Failed("IOException: reset"));

        assertThat(ledger.lock(job).lastSuccess())
                .as("the completion's clock, not the occurrence; the failure an hour later moves nothing")
                .contains(succeededAt);
        assertThat(ledger.lock(job).cursor()).isEqualTo(key(job, 0).scheduledTime());
    }

    @Test
    void aForcedRerunOfAnOlderOccurrence_isASuccessToo_andMovesTheLastSuccessButNotTheCursor() {
        RunLedger ledger = ledger();
        String job = job("rerun");
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 0)))), new Outcome.Succeeded("first"));
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 1)))), new Outcome.Succeeded("second"));

        clock.advance(Duration.ofHours(2));
        Instant rerunAt = clock.peek();
        ledger.complete(
                claimed(ledger.claim(scheduled(key(job, 0)).forced(Trigger.MANUAL))), new Outcome.Succeeded("again"));

        assertThat(ledger.lock(job).lastSuccess()).contains(rerunAt);
        assertThat(ledger.lock(job).cursor()).isEqualTo(key(job, 1).scheduledTime());
    }

    @Test
    void aSuccessInASharedGroup_notesItOnTheJobsOwnItem_notOnTheGroupsItem() {
        RunLedger ledger = ledger();
        String job = job("member");
        String group = job("shared");
        clock.advance(Duration.ofSeconds(5));
        Instant succeededAt = clock.peek();
        ledger.complete(claimed(ledger.claim(scheduled(key(job, 0)).inGroup(group))), new Outcome.Succeeded(null));

        assertThat(ledger.lock(job).lastSuccess()).contains(succeededAt);
        assertThat(ledger.lock(group).lastSuccess())
                .as("a group's item carries its lease only")
                .isEmpty();
    }
}
