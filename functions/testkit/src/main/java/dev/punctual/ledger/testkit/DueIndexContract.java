package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.DueIndex;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The due index (decision 0031), run against every store: an entity's completion notes its next
 * occurrence on its own item in the same request, and the index lists an entity under that occurrence
 * until a later completion moves it on. Each test uses its own ids, so one table may serve a class; the
 * index's answers are filtered to them.
 */
public abstract class DueIndexContract {

    private static final Instant START = Instant.parse("2026-11-29T06:00:00Z");
    private static final Duration DAY = Duration.ofDays(1);

    protected final MutableClock clock = new MutableClock(START);
    private final String prefix = SuitePrefix.fresh('d');
    private final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test. */
    protected abstract LedgerStore store();

    /** The due index over the same table or map as {@link #store()}. */
    protected abstract DueIndex dueIndex();

    private RunLedger ledger() {
        return new LedgerEngine(store(), clock, tokens, Retention.DEFAULT, clock::advance);
    }

    private String job() {
        return prefix + "-report";
    }

    private String entity(String name) {
        return job() + ":" + name;
    }

    /** A daily entity at 09:00 UTC: its occurrence on day {@code day} before START's day. */
    private static Instant daily(int day) {
        return Instant.parse("2026-11-20T09:00:00Z").plus(DAY.multipliedBy(day));
    }

    /** An entity's scheduled delivery on its own lease, held off by the job's group. */
    private ClaimRequest delivery(String ledgerId, Instant occurrence, Optional<Instant> cursor) {
        return ClaimRequest.scheduled(
                        new RunKey(ledgerId, occurrence), 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                .onEntityLease(job(), cursor);
    }

    private Claim claim(ClaimRequest request) {
        ClaimResult result = ledger().claim(request);
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    private void complete(Claim claim, Outcome outcome, NextDue next) {
        assertThat(ledger().complete(claim, outcome, next)).isInstanceOf(CompletionResult.Completed.class);
    }

    /** The occurrences day {@code first} to {@code last}, each delivered and succeeded in order. */
    private void deliverDays(String ledgerId, int first, int last) {
        for (int day = first; day <= last; day++) {
            Optional<Instant> cursor = day == first ? Optional.empty() : Optional.of(daily(day - 1));
            complete(
                    claim(delivery(ledgerId, daily(day), cursor)),
                    new Outcome.Succeeded(null),
                    NextDue.at(daily(day + 1)));
        }
    }

    private List<DueIndex.Expected> mine(Instant after, Instant upTo) {
        return dueIndex().expectedBetween(after, upTo).stream()
                .filter(e -> e.ledgerId().startsWith(prefix))
                .toList();
    }

    @Test
    void entitysCompletion_notesItsNextOccurrence_listedInAWindowThatHoldsIt_andInNoOther() {
        deliverDays(entity("acme"), 0, 0);

        assertThat(mine(daily(1).minusMillis(1), daily(1)))
                .containsExactly(new DueIndex.Expected(entity("acme"), daily(1)));
        assertThat(mine(daily(1), daily(1).plus(Duration.ofHours(3))))
                .as("a window after it")
                .isEmpty();
        assertThat(mine(daily(1).minus(Duration.ofHours(2)), daily(1).minusMillis(1)))
                .as("a window before it")
                .isEmpty();
    }

    @Test
    void nextCompletion_movesTheEntityOutOfTheOccurrenceItWasListedUnder() {
        deliverDays(entity("acme"), 0, 1);

        assertThat(mine(daily(1).minusMillis(1), daily(1)))
                .as("its delivered occurrence")
                .isEmpty();
        assertThat(mine(daily(2).minusMillis(1), daily(2)))
                .containsExactly(new DueIndex.Expected(entity("acme"), daily(2)));
    }

    @Test
    void undeliveredOccurrence_staysListed_untilALaterDeliveryCatchesUp() {
        deliverDays(entity("acme"), 0, 0);
        // Day 1 never came: the entity stays listed under it, the watchdog's candidate.
        assertThat(mine(daily(1).minus(Duration.ofHours(2)), daily(1)))
                .containsExactly(new DueIndex.Expected(entity("acme"), daily(1)));

        complete(
                claim(delivery(entity("acme"), daily(2), Optional.of(daily(1)))),
                new Outcome.Succeeded(null),
                NextDue.at(daily(3)));

        assertThat(mine(daily(1).minus(Duration.ofHours(2)), daily(1)))
                .as("day 1, caught up")
                .isEmpty();
        assertThat(mine(daily(3).minusMillis(1), daily(3)))
                .containsExactly(new DueIndex.Expected(entity("acme"), daily(3)));
    }

    @Test
    void failedCompletion_movesTheNoteOn_sinceTheOccurrenceWasDelivered() {
        deliverDays(entity("acme"), 0, 0);

        complete(
                claim(delivery(entity("acme"), daily(1), Optional.of(daily(0)))),
                new Outcome.Failed("IOException: reset"),
                NextDue.at(daily(2)));

        assertThat(mine(daily(1).minusMillis(1), daily(1))).isEmpty();
        assertThat(mine(daily(2).minusMillis(1), daily(2)))
                .containsExactly(new DueIndex.Expected(entity("acme"), daily(2)));
    }

    @Test
    void replayOfAnOlderOccurrence_leavesTheNewestOccurrencesNote() {
        deliverDays(entity("acme"), 0, 2);
        clock.advance(Duration.ofMinutes(1));
        ClaimRequest replay = ClaimRequest.scheduled(
                        new RunKey(entity("acme"), daily(1)), 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                .onEntityLease(job(), Optional.empty())
                .forced(Trigger.REPLAY);

        complete(claim(replay), new Outcome.Succeeded(null), NextDue.at(daily(2)));

        assertThat(mine(daily(2).minusMillis(1), daily(2)))
                .as("the replay's next")
                .isEmpty();
        assertThat(mine(daily(3).minusMillis(1), daily(3)))
                .containsExactly(new DueIndex.Expected(entity("acme"), daily(3)));
    }

    @Test
    void entityWithNoNextOccurrence_leavesTheIndex() {
        deliverDays(entity("once"), 0, 0);

        complete(
                claim(delivery(entity("once"), daily(1), Optional.of(daily(0)))),
                new Outcome.Succeeded(null),
                NextDue.none());

        assertThat(mine(daily(1).minusMillis(1), daily(1))).isEmpty();
        assertThat(mine(daily(2).minusMillis(1), daily(2))).isEmpty();
    }

    @Test
    void completedAtEntitysNote_isNeverInTheDueIndex_whateverTheWindow() {
        complete(
                claim(delivery(entity("at-once"), daily(0), Optional.empty())),
                new Outcome.Succeeded(null),
                NextDue.none());

        // The completed note (decision 0047) is an item of its own, outside the sparse index: the windows the
        // watchdog could ask for list the entity neither at its occurrence nor at its completion's time.
        assertThat(mine(daily(0).minus(Duration.ofHours(1)), daily(0).plus(Duration.ofHours(1))))
                .isEmpty();
        assertThat(mine(clock.peek().minus(Duration.ofHours(1)), clock.peek().plus(Duration.ofHours(1))))
                .isEmpty();
        assertThat(ledger().completedEntities(job(), dev.punctual.ledger.CompletedShards.Position.START, 10)
                        .entities())
                .as("while the job's completed list has it")
                .extracting(dev.punctual.ledger.CompletedEntity::entity)
                .containsExactly("at-once");
    }

    @Test
    void jobsCompletion_withoutANote_isNeverListed() {
        String solo = prefix + "-solo";
        Claim claim = claim(ClaimRequest.scheduled(
                new RunKey(solo, daily(0)), 1, 3, clock.peek().plus(Duration.ofMinutes(5))));

        assertThat(ledger().complete(claim, new Outcome.Succeeded(null)))
                .isInstanceOf(CompletionResult.Completed.class);

        assertThat(mine(daily(1).minusMillis(1), daily(1))).isEmpty();
    }

    @Test
    void entitiesUnderTheJobsOneLease_areNotedOnTheirOwnItems_too() {
        String ledgerId = entity("shared");
        Claim claim = claim(ClaimRequest.scheduled(
                        new RunKey(ledgerId, daily(0)), 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                .inGroup(job()));

        complete(claim, new Outcome.Succeeded(null), NextDue.at(daily(1)));

        assertThat(mine(daily(1).minusMillis(1), daily(1))).containsExactly(new DueIndex.Expected(ledgerId, daily(1)));
    }

    @Test
    void failureUnderTheJobsOneLease_notesTheEntityToo_inAnUpdateWithoutACondition() {
        String ledgerId = entity("shared-failing");
        Claim claim = claim(ClaimRequest.scheduled(
                        new RunKey(ledgerId, daily(0)), 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                .inGroup(job()));
        complete(claim, new Outcome.Succeeded(null), NextDue.at(daily(1)));
        clock.advance(Duration.ofMinutes(1));
        // A retry of a failed occurrence is claimed on its run item, not the slot: no slot, no cursor advance.
        Claim failing = claim(ClaimRequest.scheduled(
                        new RunKey(ledgerId, daily(1)), 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                .inGroup(job()));
        complete(failing, new Outcome.Failed("IOException: reset"), NextDue.at(daily(2)));
        clock.advance(Duration.ofMinutes(1));
        Claim retry = claim(ClaimRequest.scheduled(
                        new RunKey(ledgerId, daily(1)), 2, 3, clock.peek().plus(Duration.ofMinutes(5)))
                .inGroup(job()));

        complete(retry, new Outcome.Failed("IOException: reset again"), NextDue.at(daily(2)));

        assertThat(retry.onSlot()).isFalse();
        assertThat(mine(daily(2).minusMillis(1), daily(2))).containsExactly(new DueIndex.Expected(ledgerId, daily(2)));
        assertThat(mine(daily(1).minusMillis(1), daily(1))).isEmpty();
    }

    @Test
    void manyEntitiesDueOverSeveralHours_areEachListedOnce_acrossEveryShard() {
        List<String> entities =
                IntStream.range(0, 60).mapToObj(i -> entity("t" + i)).toList();
        for (int i = 0; i < entities.size(); i++) {
            Instant occurrence = daily(0).plus(Duration.ofMinutes(7L * i));
            Claim claim = claim(delivery(entities.get(i), occurrence, Optional.empty()));
            complete(claim, new Outcome.Succeeded(null), NextDue.at(occurrence.plus(DAY)));
        }

        List<DueIndex.Expected> listed = mine(daily(1).minusMillis(1), daily(1).plus(Duration.ofHours(7)));

        assertThat(listed).extracting(DueIndex.Expected::ledgerId).containsExactlyInAnyOrderElementsOf(entities);
        assertThat(mine(daily(1), daily(1).plus(Duration.ofHours(1))))
                .as("after 09:00, up to 10:00: entities 1 to 8 (every 7 minutes)")
                .hasSize(8);
    }
}
