package dev.punctual.ledger.dynamodb;

import dev.punctual.PunctualException;
import dev.punctual.ledger.DueBuckets;
import dev.punctual.ledger.DueIndex;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The due index on the ledger table (decision 0031): one Query per bucket the window touches (its UTC
 * hours times {@link DueBuckets#SHARDS}), each cut to the window by the sort key and read page by page.
 * An index read is eventually consistent; the watchdog confirms each candidate against the ledger.
 */
public final class DynamoDbDueIndex implements DueIndex {

    /**
     * The window on the index: (1) one bucket, the partition key; (2) the expected occurrence within the
     * window, inclusive bounds, {@code :from} one millisecond after the window's exclusive start.
     */
    static final String IN_BUCKET_AND_WINDOW = "#dueBucket = :bucket AND #nextDue BETWEEN :from AND :to";

    private static final String LOCK_PREFIX = "lock#";

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbDueIndex(DynamoDbClient dynamo, String table) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
    }

    @Override
    public List<Expected> expectedBetween(Instant after, Instant upTo) {
        List<Expected> expected = new ArrayList<>();
        for (String bucket : DueBuckets.covering(after, upTo)) {
            Values values = Values.of()
                    .put(":bucket", Av.s(bucket))
                    .put(":from", Av.millis(after.plusMillis(1)))
                    .put(":to", Av.millis(upTo));
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                QueryResponse page = Send.request(
                        "query the due index",
                        () -> dynamo.query(b -> b.tableName(table)
                                .indexName(LedgerTable.DUE_INDEX)
                                .keyConditionExpression(IN_BUCKET_AND_WINDOW)
                                .expressionAttributeNames(Placeholders.names(IN_BUCKET_AND_WINDOW))
                                .expressionAttributeValues(values.forExpressions(IN_BUCKET_AND_WINDOW))
                                .exclusiveStartKey(from)));
                for (Map<String, AttributeValue> item : page.items()) {
                    expected.add(expected(item));
                }
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? page.lastEvaluatedKey()
                        : null;
            } while (start != null);
        }
        return expected;
    }

    /** An index entry: the lock item's key {@code lock#job:entity} and the expected occurrence. */
    private static Expected expected(Map<String, AttributeValue> item) {
        AttributeValue pk = item.get(Attr.PK);
        AttributeValue next = item.get(Attr.NEXT_DUE);
        if (pk == null || pk.s() == null || !pk.s().startsWith(LOCK_PREFIX) || next == null || next.n() == null) {
            throw new PunctualException("due index entry is not an entity's lock item with " + Attr.NEXT_DUE
                    + " (accepted: pk lock#<job>:<entity>, " + Attr.NEXT_DUE + " epoch millis): " + item.keySet());
        }
        return new Expected(pk.s().substring(LOCK_PREFIX.length()), Instant.ofEpochMilli(Long.parseLong(next.n())));
    }
}
