package dev.punctual.entities;

import dev.punctual.entity.EntityIds;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.observability.VisibleText;
import dev.punctual.stage.StageOutputs;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
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

    private final RunLedger ledger;
    private final String caller;

    private EntityTombstones(RunLedger ledger, String caller) {
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

    /** Lifts the mark; false when the entity was not deleted. */
    boolean clear(String job, String entity) {
        return ledger.clearEntityTombstone(EntityIds.ledgerId(job, entity));
    }
}
