package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.RunKey;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Item keys. Run sort keys are fixed-width UTC timestamps so they sort by time and read well in the console. */
final class Keys {

    static final String LOCK_SK = "lock";

    private static final DateTimeFormatter OCCURRENCE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Keys() {}

    static Map<String, AttributeValue> lock(String id) {
        return Map.of(Attr.PK, s("lock#" + id), Attr.SK, s(LOCK_SK));
    }

    /** The id of a lock item, from its key ({@code lock#<id>}). */
    static String lockId(Map<String, AttributeValue> item) {
        String pk = item.get(Attr.PK).s();
        if (!pk.startsWith("lock#")) {
            throw new IllegalArgumentException("not a lock item: " + pk);
        }
        return pk.substring("lock#".length());
    }

    static Map<String, AttributeValue> run(RunKey key) {
        return Map.of(Attr.PK, s(runPk(key.jobId())), Attr.SK, s(OCCURRENCE.format(key.scheduledTime())));
    }

    static Map<String, AttributeValue> missed(RunKey first) {
        return Map.of(
                Attr.PK, s(runPk(first.jobId())), Attr.SK, s(OCCURRENCE.format(first.scheduledTime()) + "#missed"));
    }

    /** The partition of a job's (or an entity's) run items, a history's Query's key. */
    static AttributeValue runPartition(String ledgerId) {
        return s(runPk(ledgerId));
    }

    /** The run sort key of an occurrence, the lower bound of a history's Query from it. */
    static AttributeValue runSortKey(java.time.Instant occurrence) {
        return s(OCCURRENCE.format(occurrence));
    }

    /** The partition of a job's (or an entity's) execution records. */
    static String executionPartition(String ledgerId) {
        return "long#" + ledgerId;
    }

    /**
     * A long occurrence's execution record (decision 0039): beside its run items, under a partition of its
     * own so a Query of run items never meets it; sorted as the run items are.
     */
    static Map<String, AttributeValue> execution(RunKey key) {
        return Map.of(Attr.PK, s(executionPartition(key.jobId())), Attr.SK, s(OCCURRENCE.format(key.scheduledTime())));
    }

    /** A long occurrence's chunk record: one partition per occurrence, so its chunks are one Query. */
    static Map<String, AttributeValue> chunk(RunKey key, String chunk) {
        return Map.of(Attr.PK, chunkPartition(key), Attr.SK, s(chunk));
    }

    /** The partition of an occurrence's chunk records: {@code chunk#<ledgerId>#<occurrence as run items'>}. */
    static AttributeValue chunkPartition(RunKey key) {
        return s("chunk#" + key.jobId() + "#" + OCCURRENCE.format(key.scheduledTime()));
    }

    /**
     * A completed one-time entity's note (decision 0047): one partition per job and shard, sorted by entity
     * id, so {@code schedules list} reads a job's completed entities with a Query per shard and never a
     * Scan; a job id holds no {@code #}, so one job's partitions are never another's.
     */
    static Map<String, AttributeValue> completed(String job, int shard, String entity) {
        return Map.of(Attr.PK, completedPartition(job, shard), Attr.SK, s(entity));
    }

    /** The partition of a job's completed entities in one shard: {@code done#<job>#<NN>}. */
    static AttributeValue completedPartition(String job, int shard) {
        return s("done#" + job + "#" + (shard < 10 ? "0" : "") + shard);
    }

    /** The sort key after which a shard's page continues: the last entity id read. */
    static AttributeValue completedSortKey(String entity) {
        return s(entity);
    }

    private static String runPk(String jobId) {
        return "run#" + jobId;
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
