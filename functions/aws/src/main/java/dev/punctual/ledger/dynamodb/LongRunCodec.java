package dev.punctual.ledger.dynamodb;

import static dev.punctual.ledger.dynamodb.Av.enumOf;
import static dev.punctual.ledger.dynamodb.Av.instant;
import static dev.punctual.ledger.dynamodb.Av.num;
import static dev.punctual.ledger.dynamodb.Av.str;

import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.RunKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A long occurrence's items (decision 0039) to ledger values and back, as {@link Codec} does run items. */
final class LongRunCodec {

    private LongRunCodec() {}

    static Map<String, AttributeValue> executionItem(ExecutionRecord e) {
        Map<String, AttributeValue> item = new HashMap<>(Keys.execution(e.key()));
        putKey(item, e.key());
        item.put(Attr.EXECUTION, Av.s(e.name()));
        item.put(Attr.EXECUTION_ARN, Av.s(e.arn()));
        item.put(Attr.FENCE, Av.n(e.fence()));
        item.put(Attr.STARTED_AT, Av.millis(e.startedAt()));
        item.put(Attr.PLANNED, Av.n(e.planned()));
        if (e.expiresAt() != null) {
            item.put(Attr.TTL, Av.ttl(e.expiresAt()));
        }
        return item;
    }

    static Optional<ExecutionRecord> execution(Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ExecutionRecord(
                key(item),
                str(item, Attr.EXECUTION),
                str(item, Attr.EXECUTION_ARN),
                num(item, Attr.FENCE),
                instant(item, Attr.STARTED_AT),
                (int) num(item, Attr.PLANNED),
                Av.ttlInstant(item)));
    }

    static Map<String, AttributeValue> chunkItem(ChunkRecord c) {
        Map<String, AttributeValue> item = new HashMap<>(Keys.chunk(c.key(), c.chunk()));
        putKey(item, c.key());
        item.put(Attr.STATUS, Av.s(c.status().name()));
        item.put(Attr.ATTEMPTS, Av.n(c.attempts()));
        item.put(Attr.FENCE, Av.n(c.fence()));
        if (c.at() != null) {
            item.put(Attr.AT, Av.millis(c.at()));
        }
        if (c.error() != null) {
            item.put(Attr.ERROR, Av.s(c.error()));
        }
        if (c.summary() != null) {
            item.put(Attr.RESULT, Av.s(c.summary()));
        }
        if (c.expiresAt() != null) {
            item.put(Attr.TTL, Av.ttl(c.expiresAt()));
        }
        if (c.writer() != null) {
            item.put(Attr.WRITER, Av.s(c.writer()));
        }
        return item;
    }

    /** The chunk's key is the item's sort key. */
    static Optional<ChunkRecord> chunk(Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ChunkRecord(
                key(item),
                str(item, Attr.SK),
                enumOf(item, Attr.STATUS, ChunkRecord.Status.class),
                (int) num(item, Attr.ATTEMPTS),
                num(item, Attr.FENCE),
                instant(item, Attr.AT),
                str(item, Attr.ERROR),
                str(item, Attr.RESULT),
                Av.ttlInstant(item),
                str(item, Attr.WRITER)));
    }

    /** The occurrence in plain attributes, as on run items: the keys' formatted forms are for sorting. */
    private static void putKey(Map<String, AttributeValue> item, RunKey key) {
        item.put(Attr.JOB, Av.s(key.jobId()));
        item.put(Attr.SCHEDULED_AT, Av.millis(key.scheduledTime()));
    }

    private static RunKey key(Map<String, AttributeValue> item) {
        return new RunKey(str(item, Attr.JOB), instant(item, Attr.SCHEDULED_AT));
    }
}
