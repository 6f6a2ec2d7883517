package dev.punctual.ledger.dynamodb;

import static dev.punctual.ledger.dynamodb.Expressions.CHUNKS_OF_OCCURRENCE;
import static dev.punctual.ledger.dynamodb.Expressions.CHUNK_ABSENT;
import static dev.punctual.ledger.dynamodb.Expressions.CHUNK_AS_SEEN;
import static dev.punctual.ledger.dynamodb.Expressions.EXECUTIONS_OF_SUBJECT;
import static dev.punctual.ledger.dynamodb.Expressions.LEASE_OURS_AT_FENCE;

import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.spi.ChunkPut;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The store's requests for a long occurrence's records (decision 0039), beside its run items in the same
 * table. Each write is one TransactWriteItems: a ConditionCheck on the lease's group item
 * (LEASE_OURS_AT_FENCE) and the Put of the record, so the record is written only while the lease is ours.
 */
final class LongRunRequests {

    /** The transaction's items, in this order; a cancellation's reasons follow it. */
    private static final int RECORD = 0;

    private static final int LEASE = 1;

    private final DynamoDbClient dynamo;
    private final Requests requests;
    private final Integer chunkPage;

    /** @param chunkPage the most chunk items a Query page holds; null for DynamoDB's own (1 MB) */
    LongRunRequests(DynamoDbClient dynamo, Requests requests, Integer chunkPage) {
        this.dynamo = dynamo;
        this.requests = requests;
        this.chunkPage = chunkPage;
    }

    boolean noteExecution(Lease lease, Instant now, ExecutionRecord execution) {
        String what = "note execution of " + execution.key();
        List<TransactWriteItem> items = List.of(
                requests.transactPut(LongRunCodec.executionItem(execution), null, Values.of()), leaseCheck(lease, now));
        try {
            Send.request(what, () -> dynamo.transactWriteItems(requests.transaction(items, null)));
            return true;
        } catch (TransactionCanceledException e) {
            // The Put has no condition: a failed condition is the lease's.
            return Cancellations.unknownUnlessConditionFailed(e, what);
        }
    }

    /** The record's Put under CHUNK_ABSENT or CHUNK_AS_SEEN, with the lease's ConditionCheck. */
    ChunkPut putChunk(Lease lease, Instant now, ChunkRecord record, Optional<ChunkRecord> seen) {
        String what = "record chunk " + record.chunk() + " of " + record.key();
        Values v = Values.of();
        seen.ifPresent(s -> v.put(":seenAttempts", Av.n(s.attempts()))
                .put(":succeeded", Av.s(ChunkRecord.Status.SUCCEEDED.name())));
        String condition = seen.isEmpty() ? CHUNK_ABSENT : CHUNK_AS_SEEN;
        List<TransactWriteItem> items =
                List.of(requests.transactPut(LongRunCodec.chunkItem(record), condition, v), leaseCheck(lease, now));
        try {
            Send.request(what, () -> dynamo.transactWriteItems(requests.transaction(items, null)));
            return new ChunkPut.Applied();
        } catch (TransactionCanceledException e) {
            Cancellations.unknownUnlessConditionFailed(e, what);
            List<CancellationReason> reasons = e.cancellationReasons();
            // The chunk's answer first (ChunkPut): the record as stored, from the reason's ALL_OLD item.
            if (Cancellations.conditionFailed(reasons, RECORD)) {
                return new ChunkPut.Changed(
                        LongRunCodec.chunk(reasons.get(RECORD).item()));
            }
            return new ChunkPut.Fenced();
        }
    }

    private TransactWriteItem leaseCheck(Lease lease, Instant now) {
        Values v = Values.of()
                .put(":token", Av.s(lease.ownerToken()))
                .put(":now", Av.millis(now))
                .put(":fence", Av.n(lease.fence()));
        return requests.transactCheck(Keys.lock(lease.group()), LEASE_OURS_AT_FENCE, v);
    }

    Optional<ExecutionRecord> readExecution(RunKey key) {
        return LongRunCodec.execution(read("read execution record", Keys.execution(key)));
    }

    /** One page, newest first: the partition's sort keys are fixed-width UTC times. */
    List<ExecutionRecord> readRecentExecutions(String ledgerId, int limit) {
        Values v = Values.of().put(":pk", AttributeValue.fromS(Keys.executionPartition(ledgerId)));
        QueryRequest newestFirst = requests.consistentQuery(EXECUTIONS_OF_SUBJECT, v, limit, null).toBuilder()
                .scanIndexForward(false)
                .build();
        QueryResponse page =
                Send.request("read recent execution records of " + ledgerId, () -> dynamo.query(newestFirst));
        List<ExecutionRecord> records = new ArrayList<>();
        page.items().forEach(item -> records.add(LongRunCodec.execution(item).orElseThrow()));
        return records;
    }

    Optional<ChunkRecord> readChunk(RunKey key, String chunk) {
        return LongRunCodec.chunk(read("read chunk record", Keys.chunk(key, chunk)));
    }

    /** Page by page until DynamoDB names no last key. */
    List<ChunkRecord> readChunks(RunKey key) {
        Values v = Values.of().put(":pk", Keys.chunkPartition(key));
        List<ChunkRecord> chunks = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = Send.request(
                    "read chunk records of " + key,
                    () -> dynamo.query(requests.consistentQuery(CHUNKS_OF_OCCURRENCE, v, chunkPage, from)));
            page.items().forEach(item -> chunks.add(LongRunCodec.chunk(item).orElseThrow()));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return chunks;
    }

    private Map<String, AttributeValue> read(String what, Map<String, AttributeValue> key) {
        return Send.request(what, () -> dynamo.getItem(requests.consistentGet(key)))
                .item();
    }
}
