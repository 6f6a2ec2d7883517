package dev.punctual.jepsen;

import static dev.punctual.jepsen.Items.n;
import static dev.punctual.jepsen.Items.s;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The jobs' side effect, the way docs/jobs.md writes them: one item per lock group in a domain table,
 * written under the fence guard ({@link Items#FENCE_GUARD}, a stored fence not above ours).
 * Every write that lands also adds one to the item's {@code seq}, so the write returns its position in
 * the item's own order of landed writes: the checker reads the fences in the order the table applied
 * them, not in the order the processes believe they wrote.
 */
final class FencedDomain {

    /** What one fenced write did. */
    record Write(boolean applied, long seq, long seenFence) {}

    private final DynamoDbClient dynamo;
    private final String table;

    FencedDomain(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    static Map<String, AttributeValue> key(String group) {
        return Items.key("group#" + group, "state");
    }

    /**
     * The item of one chunk of a long occurrence ({@code job@occurrence}): each chunk's side effect is its
     * own item, so the checker counts the effects per (occurrence, chunk) and reads their fences in order.
     */
    static Map<String, AttributeValue> chunkKey(String occurrenceKey, String chunk) {
        return Items.key("chunk#" + occurrenceKey, chunk);
    }

    Write write(String group, long fence, String token, String writer) {
        return write(key(group), fence, token, writer);
    }

    /** A chunk's side effect, under the same fence guard as a group's: a stale fence never overwrites a newer. */
    Write writeChunk(String occurrenceKey, String chunk, long fence, String token, String writer) {
        return write(chunkKey(occurrenceKey, chunk), fence, token, writer);
    }

    Map<String, AttributeValue> readChunk(String occurrenceKey, String chunk) {
        return dynamo.getItem(b ->
                        b.tableName(table).key(chunkKey(occurrenceKey, chunk)).consistentRead(true))
                .item();
    }

    private Write write(Map<String, AttributeValue> key, long fence, String token, String writer) {
        try {
            UpdateItemResponse response = dynamo.updateItem(b -> b.tableName(table)
                    .key(key)
                    .updateExpression("SET fence = :fence, #token = :token, #writer = :writer ADD #seq :one")
                    .conditionExpression(Items.FENCE_GUARD)
                    .expressionAttributeNames(Map.of("#seq", "seq", "#token", "token", "#writer", "writer"))
                    .expressionAttributeValues(
                            Map.of(":fence", n(fence), ":token", s(token), ":writer", s(writer), ":one", n(1)))
                    .returnValues(ReturnValue.UPDATED_NEW)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return new Write(true, Items.number(response.attributes(), "seq"), fence);
        } catch (ConditionalCheckFailedException refused) {
            Map<String, AttributeValue> old = refused.hasItem() ? refused.item() : Map.of();
            return new Write(false, Items.number(old, "seq"), Items.number(old, "fence"));
        }
    }

    /** The item as it stands: its fence and how many writes landed. */
    Map<String, AttributeValue> read(String group) {
        return dynamo.getItem(b -> b.tableName(table).key(key(group)).consistentRead(true))
                .item();
    }
}
