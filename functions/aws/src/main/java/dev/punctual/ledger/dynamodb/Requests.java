package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.RunRecord;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Builds the ledger's requests. Every conditional write asks for the stored item on failure
 * (ALL_OLD: the answer to "who holds it?" without a second read) and for consumed capacity (free,
 * and what docs/benchmarks.md measures).
 */
final class Requests {

    private static final ReturnValuesOnConditionCheckFailure OLD = ReturnValuesOnConditionCheckFailure.ALL_OLD;

    private final String table;

    Requests(String table) {
        this.table = table;
    }

    /** ALL_NEW on success: the same write that takes the lease reads the cursor, slot and fence. */
    UpdateItemRequest updateLock(String id, String update, String condition, Values v) {
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(Keys.lock(id))
                .updateExpression(update)
                .conditionExpression(condition)
                .expressionAttributeNames(Placeholders.names(update, condition))
                .expressionAttributeValues(v.forExpressions(update, condition))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    PutItemRequest putRun(RunRecord record, String condition, Values v) {
        return put(Codec.runItem(record, Keys.run(record.key())), condition, v);
    }

    PutItemRequest putMissed(RunRecord range, String condition) {
        return put(Codec.runItem(range, Keys.missed(range.key())), condition, Values.of());
    }

    private PutItemRequest put(Map<String, AttributeValue> item, String condition, Values v) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(item)
                .conditionExpression(condition)
                .expressionAttributeNames(Placeholders.names(condition))
                .expressionAttributeValues(v.forExpressions(condition))
                .returnValuesOnConditionCheckFailure(OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * The pause marks of these lock items, in one BatchGetItem, eventually consistent: a listing's read
     * (half the read units of a strong one), which no claim decides on.
     */
    software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest pauseMarks(
            java.util.List<Map<String, AttributeValue>> keys) {
        return software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest.builder()
                .requestItems(Map.of(
                        table,
                        software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder()
                                .keys(keys)
                                .projectionExpression(Expressions.PAUSE_MARK_PROJECTION)
                                .expressionAttributeNames(Placeholders.names(Expressions.PAUSE_MARK_PROJECTION))
                                .consistentRead(false)
                                .build()))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** The table's name, under which a BatchGetItem response keys its items and unprocessed keys. */
    String table() {
        return table;
    }

    GetItemRequest consistentGet(Map<String, AttributeValue> key) {
        return GetItemRequest.builder()
                .tableName(table)
                .key(key)
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    TransactWriteItem transactPut(RunRecord record, String condition, Values v) {
        return transactPut(Codec.runItem(record, Keys.run(record.key())), condition, v);
    }

    TransactWriteItem transactPut(Map<String, AttributeValue> item, String condition, Values v) {
        Put.Builder put = Put.builder().tableName(table).item(item);
        if (condition != null) {
            put.conditionExpression(condition)
                    .expressionAttributeNames(Placeholders.names(condition))
                    .expressionAttributeValues(v.forExpressions(condition))
                    .returnValuesOnConditionCheckFailure(OLD);
        }
        return TransactWriteItem.builder().put(put.build()).build();
    }

    TransactWriteItem transactUpdate(Map<String, AttributeValue> key, String update, String condition, Values v) {
        Update u = Update.builder()
                .tableName(table)
                .key(key)
                .updateExpression(update)
                .conditionExpression(condition)
                .expressionAttributeNames(Placeholders.names(update, condition))
                .expressionAttributeValues(v.forExpressions(update, condition))
                .returnValuesOnConditionCheckFailure(OLD)
                .build();
        return TransactWriteItem.builder().update(u).build();
    }

    TransactWriteItem transactDelete(Map<String, AttributeValue> key, String condition, Values v) {
        Delete d = Delete.builder()
                .tableName(table)
                .key(key)
                .conditionExpression(condition)
                .expressionAttributeNames(Placeholders.names(condition))
                .expressionAttributeValues(v.forExpressions(condition))
                .returnValuesOnConditionCheckFailure(OLD)
                .build();
        return TransactWriteItem.builder().delete(d).build();
    }

    /** A condition on an item the transaction does not write (the lease of a long occurrence's writes). */
    TransactWriteItem transactCheck(Map<String, AttributeValue> key, String condition, Values v) {
        ConditionCheck check = ConditionCheck.builder()
                .tableName(table)
                .key(key)
                .conditionExpression(condition)
                .expressionAttributeNames(Placeholders.names(condition))
                .expressionAttributeValues(v.forExpressions(condition))
                .returnValuesOnConditionCheckFailure(OLD)
                .build();
        return TransactWriteItem.builder().conditionCheck(check).build();
    }

    /** One page of a partition, read consistently; {@code limit} null for DynamoDB's own page (1 MB). */
    QueryRequest consistentQuery(
            String keyCondition, Values v, Integer limit, Map<String, AttributeValue> exclusiveStartKey) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(keyCondition)
                .expressionAttributeNames(Placeholders.names(keyCondition))
                .expressionAttributeValues(v.forExpressions(keyCondition))
                .consistentRead(true)
                .limit(limit)
                .exclusiveStartKey(exclusiveStartKey)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * An eventually consistent Query, newest first, for what only an operator reads (a history): half the
     * read units of a consistent one, and a write of the last second or so missing from it changes nothing
     * any decision rests on.
     */
    QueryRequest newestFirstQuery(
            String keyCondition, Values v, int limit, Map<String, AttributeValue> exclusiveStartKey) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(keyCondition)
                .expressionAttributeNames(Placeholders.names(keyCondition))
                .expressionAttributeValues(v.forExpressions(keyCondition))
                .consistentRead(false)
                .scanIndexForward(false)
                .limit(limit)
                .exclusiveStartKey(exclusiveStartKey)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * An eventually consistent Query in key order, for what only an operator lists (a job's completed
     * entities, decision 0047): half the read units of a consistent one; each row is confirmed afterwards.
     */
    QueryRequest inOrderQuery(String keyCondition, Values v, int limit, Map<String, AttributeValue> exclusiveStartKey) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(keyCondition)
                .expressionAttributeNames(Placeholders.names(keyCondition))
                .expressionAttributeValues(v.forExpressions(keyCondition))
                .consistentRead(false)
                .scanIndexForward(true)
                .limit(limit)
                .exclusiveStartKey(exclusiveStartKey)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** An update with no condition: {@code expressionAttributeValues} must not be sent empty (nor absent: none used). */
    TransactWriteItem transactUpdate(Map<String, AttributeValue> key, String update, Values v) {
        var values = v.forExpressions(update);
        Update.Builder u = Update.builder()
                .tableName(table)
                .key(key)
                .updateExpression(update)
                .expressionAttributeNames(Placeholders.names(update));
        if (values != null && !values.isEmpty()) {
            u.expressionAttributeValues(values);
        }
        return TransactWriteItem.builder().update(u.build()).build();
    }

    TransactWriteItemsRequest transaction(List<TransactWriteItem> items, String clientRequestToken) {
        return TransactWriteItemsRequest.builder()
                .transactItems(items)
                .clientRequestToken(clientRequestToken)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }
}
