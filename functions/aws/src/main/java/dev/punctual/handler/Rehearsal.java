package dev.punctual.handler;

import java.util.Map;
import java.util.Set;
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
     * The item calls a job makes on its declared tables ({@code JobTable} actions), rehearsed whether or
     * not this pool's jobs use them: the catalog is loaded on the handler's thread at the same time.
     */
    static final Set<String> JOB_CALLS =
            Set.of("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:DeleteItem");

    private final DynamoDbClient dynamo;
    private final EventBridgeClient events;

    private Rehearsal(DynamoDbClient dynamo, EventBridgeClient events) {
        this.dynamo = dynamo;
        this.events = events;
    }

    /** Clients configured as the function's, answered by {@code http}, which must never open a connection. */
    static Rehearsal of(Map<String, String> env, LocalAnswerHttpClient http) {
        StaticCredentialsProvider credentials =
                StaticCredentialsProvider.create(AwsBasicCredentials.create("rehearsal", "rehearsal"));
        return new Rehearsal(Wiring.dynamo(env, credentials, http), Wiring.events(env, credentials, http));
    }

    /**
     * Every call, in the order a delivery makes them. Each is attempted on its own: a fault is met again,
     * and reported, by the delivery itself.
     */
    void delivery() {
        attempt(this::claim);
        attempt(() -> jobCalls(JOB_CALLS));
        attempt(this::commit);
        attempt(this::event);
    }

    private static void attempt(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException | LinkageError e) {
            // met again, and reported, by the delivery itself
        }
    }

    /** The claim: a conditional update that returns the item it wrote. */
    void claim() {
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

    /** The job's own calls, as its declared tables allow them ({@code dynamodb:Query}, ...). */
    void jobCalls(Set<String> actions) {
        for (String action : actions) {
            switch (action) {
                case "dynamodb:GetItem" ->
                    dynamo.getItem(b -> b.tableName(TABLE).key(KEY));
                case "dynamodb:PutItem" ->
                    dynamo.putItem(b -> b.tableName(TABLE).item(KEY));
                case "dynamodb:Query" ->
                    dynamo.query(b ->
                            b.tableName(TABLE).keyConditionExpression("pk = :s").expressionAttributeValues(VALUES));
                case "dynamodb:DeleteItem" ->
                    dynamo.deleteItem(b -> b.tableName(TABLE).key(KEY));
                case "dynamodb:Scan" -> dynamo.scan(b -> b.tableName(TABLE).limit(1));
                default -> {
                    // UpdateItem is the claim's; batch and describe calls are rare enough to meet on use.
                }
            }
        }
    }

    /** The commit: a transaction of an update and a put, with a request token. */
    void commit() {
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
    void event() {
        events.putEvents(b -> b.entries(PutEventsRequestEntry.builder()
                .eventBusName("punctual-rehearsal")
                .source("punctual")
                .detailType("rehearsal")
                .detail("{}")
                .build()));
    }

    @Override
    public void close() {
        dynamo.close();
        events.close();
    }
}
