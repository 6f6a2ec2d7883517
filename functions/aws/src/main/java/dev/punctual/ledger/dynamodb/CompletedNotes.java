package dev.punctual.ledger.dynamodb;

import static dev.punctual.ledger.dynamodb.Av.instant;
import static dev.punctual.ledger.dynamodb.Av.str;

import dev.punctual.PunctualException;
import dev.punctual.ledger.CompletedEntity;
import dev.punctual.ledger.RunStatus;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A completed one-time entity's note as an item (decision 0047, docs/ledger.md): {@code done#<job>#<NN>}
 * and the entity id as keys; the job, the occurrence ({@code scheduledAt}), its status, the completion's
 * time ({@code finishedAt}) and the run item's own {@code ttl}, so the note goes with the run it names.
 */
final class CompletedNotes {

    private CompletedNotes() {}

    static Map<String, AttributeValue> item(CompletedEntity note) {
        Map<String, AttributeValue> item = new HashMap<>(Keys.completed(note.job(), note.shard(), note.entity()));
        item.put(Attr.JOB, Av.s(note.job()));
        item.put(Attr.SCHEDULED_AT, Av.millis(note.occurrence()));
        item.put(Attr.STATUS, Av.s(note.status().name()));
        item.put(Attr.FINISHED_AT, Av.millis(note.finishedAt()));
        item.put(Attr.TTL, Av.ttl(note.expiresAt()));
        return item;
    }

    static CompletedEntity note(Map<String, AttributeValue> item) {
        try {
            return new CompletedEntity(
                    str(item, Attr.JOB),
                    str(item, Attr.SK),
                    instant(item, Attr.SCHEDULED_AT),
                    RunStatus.valueOf(str(item, Attr.STATUS)),
                    instant(item, Attr.FINISHED_AT),
                    Av.ttlInstant(item));
        } catch (RuntimeException e) {
            throw new PunctualException(
                    "completed entity note " + str(item, Attr.PK) + " / " + str(item, Attr.SK)
                            + " is not as a completion writes it (accepted: job, scheduledAt, status, finishedAt, ttl): "
                            + item.keySet(),
                    e);
        }
    }
}
