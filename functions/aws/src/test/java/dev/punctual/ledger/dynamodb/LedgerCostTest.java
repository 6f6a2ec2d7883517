package dev.punctual.ledger.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.EntityDeleted;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.ledger.testkit.SequentialTokens;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Requests and write units per occurrence on the happy path, measured with an SDK interceptor. */
class LedgerCostTest {

    private static final Instant START = Instant.parse("2026-11-29T06:00:00Z");
    private static final int OCCURRENCES = 10;

    private static String table;
    private static DynamoDbClient metered;
    private static final RequestMeter meter = new RequestMeter();

    private final MutableClock clock = new MutableClock(START);
    private int groupBytes;
    private int jobBytes;
    private int runBytes;

    @BeforeAll
    static void createTable() {
        table = LedgerTables.create(LedgerCostTest.class);
        metered = DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(meter)));
    }

    @AfterAll
    static void dropTable() {
        metered.close();
        DynamoDbHarness.client().deleteTable(b -> b.tableName(table));
    }

    private RunLedger ledger() {
        return DynamoDbRunLedger.create(
                metered, table, clock, new SequentialTokens("cost"), Retention.DEFAULT, clock::advance);
    }

    @Test
    void scheduledOccurrencesFollowingTheCursor_ownGroup_costTwoRequestsEach_oneUpdateAndOneTransaction() {
        List<RequestMeter.Sent> sent = runOccurrences("solo", "solo");

        assertThat(sent).hasSize(2 * OCCURRENCES);
        assertThat(sent.subList(0, 2))
                .extracting(RequestMeter.Sent::operation)
                .containsExactly("UpdateItem", "TransactWriteItems");
        int perOccurrence = ItemSize.standardWriteUnits(groupBytes)
                + ItemSize.transactionalWriteUnits(runBytes)
                + ItemSize.transactionalWriteUnits(groupBytes);
        assertThat(perOccurrence).as("WCU per occurrence, own group").isEqualTo(5);
        report("own group", sent, perOccurrence, "lock+job item " + groupBytes + " B, run item " + runBytes + " B");
    }

    @Test
    void scheduledOccurrencesFollowingTheCursor_sharedGroup_costThreeRequestsEach() {
        List<RequestMeter.Sent> sent = runOccurrences("member", "team");

        assertThat(sent).hasSize(3 * OCCURRENCES);
        assertThat(sent.subList(0, 3))
                .extracting(RequestMeter.Sent::operation)
                .containsExactly("UpdateItem", "UpdateItem", "TransactWriteItems");
        int perOccurrence = ItemSize.standardWriteUnits(groupBytes)
                + ItemSize.standardWriteUnits(jobBytes)
                + ItemSize.transactionalWriteUnits(runBytes)
                + ItemSize.transactionalWriteUnits(groupBytes)
                + ItemSize.transactionalWriteUnits(jobBytes);
        assertThat(perOccurrence).as("WCU per occurrence, shared group").isEqualTo(8);
        report(
                "shared group",
                sent,
                perOccurrence,
                "group item " + groupBytes + " B, job item " + jobBytes + " B, run item " + runBytes + " B");
    }

    /**
     * A group of capacity N (decision 0051): an uncontended claim takes the slot its occurrence hashes to and
     * claims the job's slot, as in any shared group, so it costs the same 3 requests per occurrence (2 for
     * the claim) whichever slot it lands on; the other slots are never read.
     */
    @Test
    void scheduledOccurrencesFollowingTheCursor_groupOfCapacityThree_costThreeRequestsEach_onWhicheverSlot() {
        RunLedger ledger = ledger();
        meter.reset();
        java.util.Set<String> slots = new java.util.TreeSet<>();
        for (int i = 0; i < OCCURRENCES; i++) {
            RunKey key = new RunKey("wide-member", START.plus(Duration.ofMinutes(i)));
            ClaimRequest request = ClaimRequest.scheduled(
                            key, 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                    .inGroup("wide")
                    .withGroupCapacity(3);
            ClaimResult claimed = ledger.claim(request);
            assertThat(claimed).isInstanceOf(ClaimResult.Claimed.class);
            slots.add(((ClaimResult.Claimed) claimed).claim().lease().group());
            assertThat(ledger.complete(((ClaimResult.Claimed) claimed).claim(), new Outcome.Succeeded("ok")))
                    .isInstanceOf(CompletionResult.Completed.class);
            clock.advance(Duration.ofMinutes(1));
        }
        List<RequestMeter.Sent> sent = meter.sent();

        assertThat(sent).hasSize(3 * OCCURRENCES);
        for (int i = 0; i < OCCURRENCES; i++) {
            assertThat(sent.subList(3 * i, 3 * i + 3))
                    .extracting(RequestMeter.Sent::operation)
                    .containsExactly("UpdateItem", "UpdateItem", "TransactWriteItems");
        }
        assertThat(slots).as("the occurrences' home slots").isNotEmpty().allMatch(s -> s.startsWith("wide"));
        System.out.printf(
                "[ledger-cost] group of capacity 3: %d requests for %d occurrences, on slots %s%n",
                sent.size(), OCCURRENCES, slots);
    }

    /**
     * An entity's own lease (decision 0029, 5): the claim is one TransactWriteItems (the update of the job's
     * group under its check for a maintenance hold, noting the claim's time for the holds to come, decision
     * 0036's addendum; the entity item's lease and slot), then the fenced completion, which also notes the
     * entity's next occurrence for the due index (decision 0031): no extra request. The group's update is
     * billed as a transactional write of the item, as the ConditionCheck it replaced was. The index bills
     * its own writes: the note changes the entry's key, so each completion is a delete and a put on the index.
     */
    @Test
    void inOrderEntityOccurrences_ownEntityLease_costTwoRequestsEach_twoTransactions_andTwoIndexWrites() {
        RunLedger ledger = ledger();
        String group = "tenant";
        String entity = "tenant:acme";
        // The entity's first occurrence has no cursor to expect: the general path, not measured here.
        RunKey first = new RunKey(entity, START.minus(Duration.ofMinutes(1)));
        ClaimResult firstClaim = ledger.claim(entityRequest(group, first));
        ledger.complete(((ClaimResult.Claimed) firstClaim).claim(), new Outcome.Succeeded("ok"), NextDue.at(START));
        // A minute on, as the schedule's next delivery: a claim in the same millisecond as the last would
        // meet its own fence (the clock) and take the general path.
        clock.advance(Duration.ofMinutes(1));
        meter.reset();
        for (int i = 0; i < OCCURRENCES; i++) {
            RunKey key = new RunKey(entity, START.plus(Duration.ofMinutes(i)));
            ClaimResult claimed = ledger.claim(entityRequest(group, key));
            assertThat(claimed).isInstanceOf(ClaimResult.Claimed.class);
            if (i == 0) {
                groupBytes = itemBytes(Keys.lock(group));
                jobBytes = itemBytes(Keys.lock(entity));
            }
            Instant next = key.scheduledTime().plus(Duration.ofMinutes(1));
            CompletionResult done = ledger.complete(
                    ((ClaimResult.Claimed) claimed).claim(), new Outcome.Succeeded("ok"), NextDue.at(next));
            assertThat(done).isInstanceOf(CompletionResult.Completed.class);
            clock.advance(Duration.ofMinutes(1));
        }
        runBytes = itemBytes(Keys.run(new RunKey(entity, START)));
        List<RequestMeter.Sent> sent = meter.sent();
        Instant noted = START.plus(Duration.ofMinutes(OCCURRENCES));

        assertThat(sent).hasSize(2 * OCCURRENCES);
        assertThat(sent).extracting(RequestMeter.Sent::operation).containsOnly("TransactWriteItems");
        assertThat(DynamoDbHarness.client()
                        .getItem(b -> b.tableName(table).key(Keys.lock(group)).consistentRead(true))
                        .item()
                        .get(Attr.ENTITY_LEASED_AT)
                        .n())
                .as("the last claim's time, noted on the job's group in the claim's own request")
                .isEqualTo(Long.toString(
                        START.plus(Duration.ofMinutes(OCCURRENCES)).toEpochMilli()));
        int perOccurrence = ItemSize.transactionalWriteUnits(groupBytes)
                + ItemSize.transactionalWriteUnits(jobBytes)
                + ItemSize.transactionalWriteUnits(runBytes)
                + ItemSize.transactionalWriteUnits(jobBytes);
        assertThat(new DynamoDbDueIndex(DynamoDbHarness.client(), table).expectedBetween(START, noted))
                .as("the index lists the entity under its newest note only")
                .containsExactly(new dev.punctual.ledger.DueIndex.Expected(entity, noted));
        // A keys-only entry: the table's keys and the index's; DynamoDB adds 100 bytes per index entry.
        Map<String, AttributeValue> entry = new java.util.HashMap<>(Keys.lock(entity));
        entry.put(Attr.DUE_BUCKET, AttributeValue.fromS(dev.punctual.ledger.DueBuckets.of(entity, noted)));
        entry.put(Attr.NEXT_DUE, AttributeValue.fromN(Long.toString(noted.toEpochMilli())));
        int entryBytes = ItemSize.bytes(entry) + 100;
        int indexWrites = 2 * ItemSize.standardWriteUnits(entryBytes);
        assertThat(indexWrites)
                .as("index write units per occurrence: the entry's delete and put")
                .isEqualTo(2);
        report(
                "entity's own lease",
                sent,
                perOccurrence,
                "job group item " + groupBytes + " B, entity item " + jobBytes + " B, run item " + runBytes + " B");
        System.out.printf(
                "[ledger-cost] entity's due index: %d index write units per occurrence (the entry moved between"
                        + " index keys: a delete and a put, %d B each), no extra request%n",
                indexWrites, entryBytes);
    }

    /**
     * {@code EntityJob.sharingOneLease()}: the entity's occurrences under the job's group lease cost what a
     * shared group's job does. The entity's tombstone is checked in the slot claim's UpdateItem, which
     * this path sends anyway: no request is added for it.
     */
    @Test
    void inOrderEntityOccurrences_sharedLease_costThreeRequestsEach_theTombstoneRidesOnTheSlotClaim() {
        List<RequestMeter.Sent> sent = runOccurrences("crew:acme", "crew");

        assertThat(sent).hasSize(3 * OCCURRENCES);
        assertThat(sent.subList(0, 3))
                .extracting(RequestMeter.Sent::operation)
                .containsExactly("UpdateItem", "UpdateItem", "TransactWriteItems");
    }

    /** A delivery in flight after the entity's delete: the one claim request, refused; nothing else. */
    @Test
    void deliveryOfADeletedEntity_ownEntityLease_costsOneRefusedTransaction() {
        RunLedger ledger = ledger();
        RunKey key = new RunKey("gone:acme", START);
        ledger.tombstoneEntity(key.jobId(), "team-service");
        meter.reset();

        ClaimResult refused = ledger.claim(entityRequest("gone", key));

        assertThat(refused).isInstanceOf(EntityDeleted.class);
        assertThat(meter.sent()).extracting(RequestMeter.Sent::operation).containsExactly("TransactWriteItems");
    }

    /**
     * A one-time {@code at()} entity's delivery (decision 0047) sends the requests a recurring entity's first
     * delivery sends, the same operations in the same order: its completed note is one more Put in the
     * completion's transaction, a transactional write of an item under 1 KB (2 write units), and its due
     * index entry is deleted rather than moved (1 index write unit instead of 2).
     */
    @Test
    void atEntityDelivery_sendsTheRequestsOfARecurringOnesFirst_theCompletedNoteRidesInTheCompletion() {
        RunLedger ledger = ledger();
        Instant at = START.minus(Duration.ofMinutes(1));
        meter.reset();
        deliverFirst(ledger, new RunKey("trial:daily", at), NextDue.at(at.plus(Duration.ofDays(1))));
        List<String> recurring =
                meter.sent().stream().map(RequestMeter.Sent::operation).toList();
        meter.reset();
        deliverFirst(ledger, new RunKey("trial:order-9", at), NextDue.none());
        List<String> oneTime =
                meter.sent().stream().map(RequestMeter.Sent::operation).toList();

        assertThat(oneTime).isEqualTo(recurring).endsWith("TransactWriteItems");
        int noteBytes =
                itemBytes(Keys.completed("trial", dev.punctual.ledger.CompletedShards.of("trial:order-9"), "order-9"));
        assertThat(ItemSize.transactionalWriteUnits(noteBytes))
                .as("the note's write units in the completion's transaction")
                .isEqualTo(2);
        System.out.printf(
                "[ledger-cost] at() entity: %s, as a recurring entity's first delivery; the completed note adds"
                        + " %d B, %d WCU to the completion's transaction, and its index entry is deleted (1 index"
                        + " write unit)%n",
                oneTime, noteBytes, ItemSize.transactionalWriteUnits(noteBytes));
    }

    private void deliverFirst(RunLedger ledger, RunKey key, NextDue next) {
        ClaimResult claimed =
                ledger.claim(ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                        .onEntityLease("trial", java.util.Optional.empty()));
        assertThat(claimed).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(ledger.complete(((ClaimResult.Claimed) claimed).claim(), new Outcome.Succeeded("ok"), next))
                .isInstanceOf(CompletionResult.Completed.class);
    }

    private ClaimRequest entityRequest(String group, RunKey key) {
        return ClaimRequest.scheduled(key, 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                .onEntityLease(group, java.util.Optional.of(key.scheduledTime().minus(Duration.ofMinutes(1))));
    }

    @Test
    void duplicateDelivery_ofTheLatestSucceededOccurrence_costsOneRejectedUpdate() {
        runOccurrences("dup", "dup");
        RunKey latest = new RunKey("dup", START.plus(Duration.ofMinutes(OCCURRENCES - 1)));
        meter.reset();

        ClaimResult duplicate =
                ledger().claim(ClaimRequest.scheduled(latest, 2, 3, clock.peek().plus(Duration.ofMinutes(5))));

        assertThat(duplicate).isInstanceOf(ClaimResult.AlreadyDone.class);
        assertThat(meter.sent()).extracting(RequestMeter.Sent::operation).containsExactly("UpdateItem");
    }

    private List<RequestMeter.Sent> runOccurrences(String job, String group) {
        RunLedger ledger = ledger();
        meter.reset();
        for (int i = 0; i < OCCURRENCES; i++) {
            RunKey key = new RunKey(job, START.plus(Duration.ofMinutes(i)));
            ClaimRequest request = ClaimRequest.scheduled(
                            key, 1, 3, clock.peek().plus(Duration.ofMinutes(5)))
                    .inGroup(group);
            ClaimResult claimed = ledger.claim(request);
            assertThat(claimed).isInstanceOf(ClaimResult.Claimed.class);
            if (i == 0) {
                // In flight is the items' largest state, the one their writes are billed on.
                groupBytes = itemBytes(Keys.lock(group));
                jobBytes = itemBytes(Keys.lock(job));
            }
            CompletionResult done =
                    ledger.complete(((ClaimResult.Claimed) claimed).claim(), new Outcome.Succeeded("ok"));
            assertThat(done).isInstanceOf(CompletionResult.Completed.class);
            clock.advance(Duration.ofMinutes(1));
        }
        runBytes = itemBytes(Keys.run(new RunKey(job, START)));
        return meter.sent();
    }

    private int itemBytes(Map<String, AttributeValue> key) {
        return ItemSize.bytes(DynamoDbHarness.client()
                .getItem(b -> b.tableName(table).key(key).consistentRead(true))
                .item());
    }

    private static void report(String label, List<RequestMeter.Sent> sent, int wcu, String sizes) {
        int perOccurrence = sent.size() / OCCURRENCES;
        System.out.printf(
                "[ledger-cost] %s: %d requests for %d occurrences (%s per occurrence); %d WCU per occurrence by"
                        + " DynamoDB's rules (%s); emulator-reported units of the first occurrence: %s%n",
                label,
                sent.size(),
                OCCURRENCES,
                sent.stream()
                        .limit(perOccurrence)
                        .map(RequestMeter.Sent::operation)
                        .toList(),
                wcu,
                sizes,
                sent.stream()
                        .limit(perOccurrence)
                        .map(RequestMeter.Sent::capacityUnits)
                        .toList());
    }
}
