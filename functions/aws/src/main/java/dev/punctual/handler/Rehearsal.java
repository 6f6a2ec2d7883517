package dev.punctual.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

/**
 * A delivery's SDK calls walked through once in the init phase ({@link WarmUp}), on clients of their own
 * whose HTTP client answers locally ({@link LocalAnswerHttpClient}): the claim's {@code UpdateItem}, the
 * item calls a job makes on its declared tables, the commit's {@code TransactWriteItems} and the event's
 * {@code PutEvents}. Each call's first use (its marshaller, response handler, endpoint rules, signer and
 * the SDK's lambdas at its call site) is code shared by every client of the service, so the delivery's
 * own calls on the real clients find it ready. The clients are configured as the function's (region,
 * endpoint) with dummy credentials. Nothing leaves the process and nothing is kept.
 */
final class Rehearsal implements AutoCloseable {

    private static final String TABLE = "punctual-rehearsal";
    private static final Map<String, AttributeValue> KEY =
            Map.of("pk", AttributeValue.fromS("rehearsal"), "sk", AttributeValue.fromS("rehearsal"));
    private static final Map<String, String> NAMES = Map.of("#s", "status");
    private static final Map<String, AttributeValue> VALUES = Map.of(":s", AttributeValue.fromS("rehearsal"));

    /**
     * A delivery's operations, in its order: the claim, the item calls a job makes on its declared
     * tables (rehearsed whether or not this pool's jobs use them, since the catalog is loaded on the
     * handler's thread at the same time; Scan and the batch calls are rare enough to meet on use), the
     * commit and the event.
     */
    static final List<String> OPERATIONS = List.of(
            "DynamoDB_20120810.UpdateItem",
            "DynamoDB_20120810.GetItem",
            "DynamoDB_20120810.PutItem",
            "DynamoDB_20120810.Query",
            "DynamoDB_20120810.DeleteItem",
            "DynamoDB_20120810.TransactWriteItems",
            "AWSEvents.PutEvents");

    private final DynamoDbClient dynamo;
    private final EventBridgeClient events;
    private final List<Throwable> faults = new ArrayList<>();

    private Rehearsal(DynamoDbClient dynamo, EventBridgeClient events) {
        this.dynamo = dynamo;
        this.events = events;
    }

    /** Clients configured as the function's, answered by {@code http}, which must never open a connection. */
    static Rehearsal of(Map<String, String> env, LocalAnswerHttpClient http) {
        StaticCredentialsProvider credentials =
                StaticCredentialsProvider.create(AwsBasicCredentials.create("rehearsal", "rehearsal"));
        DynamoDbClient dynamo = Wiring.dynamo(env, credentials, http);
        try {
            return new Rehearsal(dynamo, Wiring.events(env, credentials, http));
        } catch (RuntimeException | Error e) {
            dynamo.close();
            throw e;
        }
    }

    /**
     * Every call, in the order a delivery makes them ({@link #OPERATIONS}): the claim, the job's item
     * calls, the commit, the event. Each is attempted on its own, and a fault is kept ({@link #faults}),
     * not thrown: the delivery meets it again, and reports it, on the handler's thread.
     */
    void delivery() {
        attempt(this::claim);
        attempt(() -> dynamo.getItem(b -> b.tableName(TABLE).key(KEY)));
        attempt(() -> dynamo.putItem(b -> b.tableName(TABLE).item(KEY)));
        attempt(() -> dynamo.query(
                b -> b.tableName(TABLE).keyConditionExpression("pk = :s").expressionAttributeValues(VALUES)));
        attempt(() -> dynamo.deleteItem(b -> b.tableName(TABLE).key(KEY)));
        attempt(this::commit);
        attempt(this::event);
    }

    /** The faults the calls met (none when the jar is whole). */
    List<Throwable> faults() {
        return List.copyOf(faults);
    }

    private void attempt(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException | LinkageError e) {
            faults.add(e);
        }
    }

    /** The claim: a conditional update that returns the item it wrote. */
    private void claim() {
        dynamo.updateItem(b -> b.tableName(TABLE)
                .key(KEY)
                .updateExpression("SET #s = :s")
                .conditionExpression("attribute_not_exists(#s) OR #s <> :s")
                .expressionAttributeNames(NAMES)
                .expressionAttributeValues(VALUES)
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    }

    /** The commit: a transaction of an update and a put, with a request token. */
    private void commit() {
        dynamo.transactWriteItems(b -> b.clientRequestToken("rehearsal")
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .transactItems(
                        TransactWriteItem.builder()
                                .update(Update.builder()
                                        .tableName(TABLE)
                                        .key(KEY)
                                        .updateExpression("SET #s = :s")
                                        .expressionAttributeNames(NAMES)
                                        .expressionAttributeValues(VALUES)
                                        .build())
                                .build(),
                        TransactWriteItem.builder()
                                .put(Put.builder().tableName(TABLE).item(KEY).build())
                                .build()));
    }

    /** The lifecycle event. */
    private void event() {
        events.putEvents(b -> b.entries(PutEventsRequestEntry.builder()
                .eventBusName("punctual-rehearsal")
                .source("punctual")
                .detailType("rehearsal")
                .detail("{}")
                .build()));
    }

    @Override
    public void close() {
        try {
            dynamo.close();
        } finally {
            events.close();
        }
    }
}
