package dev.punctual.entities;

import dev.punctual.entity.EntityIds;
import dev.punctual.ledger.CompletedPage;
import dev.punctual.ledger.CompletedShards;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.observability.VisibleText;
import dev.punctual.stage.StageOutputs;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The ledger's side of an entity's delete (decision 0029, 8): {@link EntitySchedules#delete} marks the
 * entity's ledger item {@code job:entity} before it deletes the schedule, so a delivery still in flight
 * is recorded as an ENTITY_DELETED skip and never run; {@link EntitySchedules#put} clears the mark before
 * it writes the schedule. Through the ledger port, on the stage's ledger table.
 */
public final class EntityTombstones {

    /** The longest caller name a tombstone stores. */
    static final int MAX_CALLER = 128;

    /**
     * How long an entity's write lock stands without a renewal: far above a put's or a delete's few calls
     * (each renewed before its schedule write), so only a writer that died holds it this long.
     */
    static final Duration WRITE_TERM = Duration.ofMinutes(2);

    /** How long a put or delete waits for another's write lock before it fails: one term and a margin. */
    static final Duration WRITE_WAIT = WRITE_TERM.plusSeconds(15);

    private static final Duration FIRST_BACKOFF = Duration.ofMillis(20);
    private static final Duration LONGEST_BACKOFF = Duration.ofSeconds(1);

    private final RunLedger ledger;
    private final String caller;
    private final Sleeper sleeper;

    /** A new owner token per write lock taken: what tells this put or delete from a racing one. */
    private final Supplier<String> tokens;

    private EntityTombstones(RunLedger ledger, String caller) {
        this(ledger, caller, Sleeper.real(), () -> UUID.randomUUID().toString());
    }

    private EntityTombstones(RunLedger ledger, String caller, Sleeper sleeper, Supplier<String> tokens) {
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        if (caller == null || caller.isBlank() || caller.length() > MAX_CALLER || VisibleText.hasHidden(caller)) {
            throw new EntityTargetsException(
                    "caller",
                    "'" + (caller == null ? "(none)" : VisibleText.escaped(caller)) + "' is not accepted; accepted:"
                            + " the service's name, 1-" + MAX_CALLER + " visible characters, stored with each delete");
        }
        this.caller = caller;
    }

    /**
     * On the stage's ledger table, the stage output {@value StageOutputs#LEDGER_TABLE} of its stack (the
     * services' managed policy allows the updates on its entity items, nothing else on the table).
     *
     * @param dynamo the caller's client, which it keeps owning (and closes)
     * @param outputs the stack's outputs, by output key; other keys are ignored
     * @param caller who deletes, stored on the tombstone (e.g. {@code "billing-service"})
     * @throws EntityTargetsException naming the output key when it is missing, or the caller when blank
     */
    public static EntityTombstones onStage(DynamoDbClient dynamo, Map<String, String> outputs, String caller) {
        Objects.requireNonNull(dynamo, "dynamo");
        Objects.requireNonNull(outputs, "outputs");
        String table = outputs.get(StageOutputs.LEDGER_TABLE);
        if (table == null || table.isBlank()) {
            throw new EntityTargetsException(
                    "outputs." + StageOutputs.LEDGER_TABLE,
                    "missing from the stage's outputs; accepted: the outputs of the stage's stack, Punctual-<stage>"
                            + " (every stage declares it)");
        }
        return onTable(dynamo, table, caller);
    }

    /** On a ledger table named directly (a local emulator, a test). */
    public static EntityTombstones onTable(DynamoDbClient dynamo, String table, String caller) {
        RunLedger ledger = DynamoDbRunLedger.create(
                dynamo,
                table,
                Clock.systemUTC(),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                Sleeper.real());
        return new EntityTombstones(ledger, caller);
    }

    /** On any ledger (the test kit's in-memory one, say). */
    public static EntityTombstones on(RunLedger ledger, String caller) {
        return new EntityTombstones(ledger, caller);
    }

    /** The same tombstones, waiting for another writer's lock with {@code sleeper} (a test's). */
    EntityTombstones waitingWith(Sleeper other) {
        return new EntityTombstones(ledger, caller, other, tokens);
    }

    /**
     * Takes the entity's write lock (issue 40), waiting while another put or delete of it holds it, so the
     * two never interleave: the ledger and the scheduler end as the later of them left them.
     *
     * @return the lock, to renew before each schedule write and to close when done; empty when another
     *     writer held it for longer than {@link #WRITE_WAIT} (one that died with it holds it one term)
     */
    Optional<EntityWrite> write(String job, String entity) {
        String id = EntityIds.ledgerId(job, entity);
        String owner = tokens.get();
        Duration waited = Duration.ZERO;
        Duration backoff = FIRST_BACKOFF;
        while (!ledger.takeEntityWrite(id, owner, WRITE_TERM)) {
            if (waited.compareTo(WRITE_WAIT) >= 0) {
                return Optional.empty();
            }
            try {
                sleeper.sleep(backoff);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for the write lock of " + id, e);
            }
            waited = waited.plus(backoff);
            backoff =
                    backoff.multipliedBy(2).compareTo(LONGEST_BACKOFF) > 0 ? LONGEST_BACKOFF : backoff.multipliedBy(2);
        }
        return Optional.of(new EntityWrite(id, owner));
    }

    /** One put's or delete's hold on an entity's write lock. */
    final class EntityWrite implements AutoCloseable {
        private final String ledgerId;
        private final String owner;

        private EntityWrite(String ledgerId, String owner) {
            this.ledgerId = ledgerId;
            this.owner = owner;
        }

        /** Before a schedule write: false when the lock is no longer ours (its term passed and another took it). */
        boolean renew() {
            return ledger.renewEntityWrite(ledgerId, owner, WRITE_TERM);
        }

        /**
         * Gives the lock back. A release that fails is not reported: the put or delete it ends has already
         * succeeded or failed on its own, and the lock lapses by its term (the next writer waits that long).
         */
        @Override
        public void close() {
            try {
                ledger.releaseEntityWrite(ledgerId, owner);
            } catch (RuntimeException lapsesByItsTerm) {
                // see above
            }
        }
    }

    /** Marks the entity deleted; a second delete keeps the first's mark, which is returned. */
    EntityTombstone tombstone(String job, String entity) {
        return ledger.tombstoneEntity(EntityIds.ledgerId(job, entity), caller);
    }

    /**
     * After a put wrote the schedule: notes the entity's next occurrence for the due watch (decision 0031),
     * so it is watched from the put, not only from its first completed delivery.
     */
    NextDue noteDue(String job, String entity, Schedule schedule) {
        OccurrenceCalculator occurrences = OccurrenceCalculator.of(schedule);
        return ledger.noteEntityDue(EntityIds.ledgerId(job, entity), occurrences::next);
    }

    /**
     * The entity's ledger item as it stands (its cursor, slot and tombstone): one consistent GetItem, the
     * operator's read ({@code dynamodb:GetItem}, which the services' policy does not grant).
     */
    LockState state(String job, String entity) {
        return ledger.lock(EntityIds.ledgerId(job, entity));
    }

    /** A page of the job's completed one-time entities (decision 0047), each confirmed on its item. */
    CompletedPage completed(String job, CompletedShards.Position from, int limit) {
        return ledger.completedEntities(job, from, limit);
    }

    /** The run record of one of the entity's occurrences, if the ledger has one. */
    Optional<RunRecord> run(String job, String entity, Instant occurrence) {
        return ledger.run(new RunKey(EntityIds.ledgerId(job, entity), occurrence));
    }

    /** Lifts the mark; false when the entity was not deleted. */
    boolean clear(String job, String entity) {
        return ledger.clearEntityTombstone(EntityIds.ledgerId(job, entity));
    }
}
