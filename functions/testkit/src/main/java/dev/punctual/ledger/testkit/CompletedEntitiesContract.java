package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletedEntity;
import dev.punctual.ledger.CompletedPage;
import dev.punctual.ledger.CompletedShards;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A job's completed one-time entities (decision 0047), run against every store: the completion that
 * clears an entity's due note (an {@code at()} delivered, whatever its outcome) also puts the entity's
 * note under its job, in the same request; {@code completedEntities} pages through the job's notes shard
 * by shard and drops an entity deleted since. Each test uses its own job id, so one table may serve a class.
 */
public abstract class CompletedEntitiesContract {

    private static final Instant START = Instant.parse("2026-11-29T06:00:00Z");
    private static final Instant AT = Instant.parse("2026-11-29T05:30:00Z");

    protected final MutableClock clock = new MutableClock(START);
    private final String prefix = SuitePrefix.fresh('c');
    private final SequentialTokens tokens = new SequentialTokens(prefix);

    /** The store under test. */
    protected abstract LedgerStore store();

    private RunLedger ledger() {
        return new LedgerEngine(store(), clock, tokens, Retention.DEFAULT, clock::advance);
    }

    private String job() {
        return prefix + "-trial";
    }

    private String entity(String name) {
        return job() + ":" + name;
    }

    private Claim claim(String ledgerId, Instant occurrence, Optional<Instant> cursor) {
        ClaimResult result = ledger().claim(ClaimRequest.scheduled(
                        new RunKey(ledgerId, occurrence), 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                .onEntityLease(job(), cursor));
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim();
    }

    private RunRecord complete(Claim claim, Outcome outcome, NextDue next) {
        CompletionResult result = ledger().complete(claim, outcome, next);
        assertThat(result).isInstanceOf(CompletionResult.Completed.class);
        return result.record();
    }

    /** An {@code at()} entity delivered once: its completion has no next occurrence to note. */
    private RunRecord deliverOnce(String name, Instant at, Outcome outcome) {
        return complete(claim(entity(name), at, Optional.empty()), outcome, NextDue.none());
    }

    private List<CompletedEntity> all() {
        return ledger().completedEntities(job(), CompletedShards.Position.START, CompletedPage.MAX_LIMIT)
                .entities();
    }

    @Test
    void completedAtEntity_isListedUnderItsJob_withItsOccurrenceStatusAndTheRunItemsExpiry() {
        RunRecord run = deliverOnce("order-1", AT, new Outcome.Succeeded(null));

        assertThat(all())
                .containsExactly(new CompletedEntity(
                        job(), "order-1", AT, RunStatus.SUCCEEDED, run.finishedAt(), run.expiresAt()));
        assertThat(all().getFirst().expiresAt())
                .as("kept as long as the run item it names: the success retention, in whole seconds")
                .isEqualTo(
                        run.finishedAt().plus(Duration.ofDays(35)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    }

    @Test
    void failedDelivery_ofAnAtEntity_isListedAsFailed() {
        deliverOnce("order-2", AT, new Outcome.Failed("IOException: reset"));

        assertThat(all())
                .extracting(CompletedEntity::entity, CompletedEntity::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("order-2", RunStatus.FAILED));
    }

    @Test
    void retriedDelivery_replacesTheNote_withTheLatestOutcome() {
        deliverOnce("order-3", AT, new Outcome.Failed("IOException: reset"));
        clock.advance(Duration.ofMinutes(1));
        Claim retry = ((ClaimResult.Claimed) ledger().claim(ClaimRequest.scheduled(
                                new RunKey(entity("order-3"), AT),
                                2,
                                3,
                                clock.peek().plus(Duration.ofMinutes(5)))
                        .onEntityLease(job(), Optional.empty())))
                .claim();
        complete(retry, new Outcome.Succeeded(null), NextDue.none());

        assertThat(all())
                .extracting(CompletedEntity::entity, CompletedEntity::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("order-3", RunStatus.SUCCEEDED));
    }

    @Test
    void recurringEntitysCompletion_notesItsNextOccurrence_andIsNotListed() {
        complete(
                claim(entity("daily"), AT, Optional.empty()),
                new Outcome.Succeeded(null),
                NextDue.at(AT.plus(Duration.ofDays(1))));

        assertThat(all()).isEmpty();
    }

    @Test
    void jobsOwnCompletion_isNeverListed() {
        Claim claim = ((ClaimResult.Claimed) ledger().claim(ClaimRequest.scheduled(
                        new RunKey(prefix + "-solo", AT), 1, 3, clock.peek().plus(Duration.ofMinutes(5)))))
                .claim();
        ledger().complete(claim, new Outcome.Succeeded(null));

        assertThat(ledger().completedEntities(prefix + "-solo", CompletedShards.Position.START, 10)
                        .entities())
                .isEmpty();
    }

    @Test
    void atEntityUnderTheJobsOneLease_isListedToo() {
        Claim claim = ((ClaimResult.Claimed) ledger().claim(ClaimRequest.scheduled(
                                new RunKey(entity("shared"), AT),
                                1,
                                3,
                                clock.peek().plus(Duration.ofMinutes(5)))
                        .inGroup(job())))
                .claim();
        complete(claim, new Outcome.Succeeded(null), NextDue.none());

        assertThat(all()).extracting(CompletedEntity::entity).containsExactly("shared");
    }

    @Test
    void deletedEntity_isDropped_asGetAnswersIt() {
        deliverOnce("gone", AT, new Outcome.Succeeded(null));
        deliverOnce("kept", AT, new Outcome.Succeeded(null));

        ledger().tombstoneEntity(entity("gone"), "ops");

        assertThat(all()).extracting(CompletedEntity::entity).containsExactly("kept");
    }

    @Test
    void entityPutAgain_keepsItsNote_untilTheNewAtsCompletionReplacesIt() {
        deliverOnce("again", AT, new Outcome.Succeeded(null));
        Instant next = START.plus(Duration.ofHours(2));
        // A put of a new at(): its due note is back on the item; the ledger's record of the first delivery
        // stands (the caller lists the live schedule instead).
        ledger().noteEntityDue(entity("again"), now -> Optional.of(next));

        assertThat(all()).extracting(CompletedEntity::occurrence).containsExactly(AT);

        clock.advance(Duration.between(clock.peek(), next).plusSeconds(1));
        complete(claim(entity("again"), next, Optional.of(AT)), new Outcome.Succeeded(null), NextDue.none());

        assertThat(all())
                .as("one note per entity: the newest at()'s")
                .extracting(CompletedEntity::occurrence)
                .containsExactly(next);
    }

    @Test
    void pages_readEveryShardInOrder_eachEntityOnce_andEndWithoutANextToken() {
        List<String> names = IntStream.range(0, 40).mapToObj(i -> "o" + i).toList();
        names.forEach(name -> deliverOnce(name, AT, new Outcome.Succeeded(null)));

        List<String> seen = new ArrayList<>();
        CompletedShards.Position at = CompletedShards.Position.START;
        int pages = 0;
        while (true) {
            CompletedPage page = ledger().completedEntities(job(), at, 7);
            assertThat(page.read()).isLessThanOrEqualTo(7);
            page.entities().forEach(e -> seen.add(e.entity()));
            pages++;
            if (page.next().isEmpty()) {
                break;
            }
            at = CompletedShards.Position.parse(page.next().get()).orElseThrow();
        }

        assertThat(seen).containsExactlyInAnyOrderElementsOf(names);
        assertThat(pages).as("40 notes, 7 a page").isBetween(6, 7);
    }

    @Test
    void aPagesLimit_isOneToAThousand() {
        assertThatThrownBy(() -> ledger().completedEntities(job(), CompletedShards.Position.START, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit: 1-1000");
    }
}
