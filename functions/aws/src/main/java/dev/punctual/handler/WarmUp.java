package dev.punctual.handler;

import dev.punctual.json.Json;
import dev.punctual.observability.Redactor;
import dev.punctual.runtime.InvalidPayload;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.ResultJson;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * Builds the event client and initialises, on a second thread while Lambda's init phase builds the
 * DynamoDB client and the runtime, the classes every delivery's own requests need: the models of the claim ({@code UpdateItem}), the commit
 * ({@code TransactWriteItems}) and the lifecycle event ({@code PutEvents}), and the JSON and time
 * formatting of the result. A model class's first use spins one hidden class per field accessor (about
 * 250 of them on the happy path); done here, that work overlaps the client set-up instead of following
 * it. It sends nothing, writes nothing and holds no unique value, so a SnapStart snapshot may capture it
 * half done. The job's own requests are the job's, and not warmed.
 */
final class WarmUp {

    private final CompletableFuture<EventBridgeClient> events = new CompletableFuture<>();
    private final Thread thread;

    private WarmUp(Supplier<EventBridgeClient> eventsClient) {
        this.thread = Thread.ofPlatform()
                .daemon() // a function that returns before the warm-up ends is not held up
                .name("punctual-warm-up")
                .unstarted(() -> run(eventsClient));
    }

    /** Starts building the event client and initialising the classes; returns at once. */
    static WarmUp start(Supplier<EventBridgeClient> eventsClient) {
        WarmUp warmUp = new WarmUp(eventsClient);
        warmUp.thread.start();
        return warmUp;
    }

    /**
     * The event client, once the warm-up thread has built it. A fault building it (which the DynamoDB
     * client's identical settings would have met first) is thrown here, to the publisher that reports
     * it.
     */
    EventBridgeClient events() {
        try {
            return events.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /** Waits for the warm-up to end (the SnapStart priming hook, before the snapshot). */
    void await() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** In the order the delivery needs them: the payload and the claim first, the event last. */
    private void run(Supplier<EventBridgeClient> eventsClient) {
        try {
            core();
            claimModels();
        } catch (RuntimeException | LinkageError e) {
            // As below: the delivery meets it again and reports it.
        }
        try {
            events.complete(eventsClient.get());
        } catch (RuntimeException | Error e) {
            events.completeExceptionally(e);
        }
        try {
            commitModels();
            eventModels();
        } catch (RuntimeException | LinkageError e) {
            // A class the jar lost: the delivery meets the same fault on its own thread and reports it
            // with its request id; reported here too, it would be a second, unattributed trace.
        }
    }

    /** The payload's JSON and time, a schedule's occurrences in a zone, the redactor, the result. */
    private static void core() {
        try {
            Json.read("{\"kind\":\"scheduled\",\"scheduledTime\":\"2027-01-01T00:00:00Z\",\"attempt\":1}");
        } catch (Json.NotJsonException e) {
            throw new IllegalStateException("the warm-up's own payload is JSON", e);
        }
        Instant at = Instant.parse("2027-01-01T00:00:00Z");
        OccurrenceCalculator.of(Schedule.parse("cron(0 9 * * ? *)", "Europe/Berlin"))
                .next(at);
        Redactor.standard().line("warm-up");
        ResultJson.render(InvocationResult.invalid("warm-up", new InvalidPayload("WARM_UP", null, "warm-up")));
    }

    private static void claimModels() {
        AttributeValue.fromS("warm-up");
        UpdateItemRequest.builder().build();
        UpdateItemResponse.builder().build();
        ConsumedCapacity.builder().build();
    }

    private static void commitModels() {
        TransactWriteItemsRequest.builder().build();
        TransactWriteItemsResponse.builder().build();
        TransactWriteItem.builder().build();
        Update.builder().build();
        Put.builder().build();
        CancellationReason.builder().build();
    }

    private static void eventModels() {
        PutEventsRequest.builder().build();
        PutEventsRequestEntry.builder().build();
        PutEventsResponse.builder().build();
        PutEventsResultEntry.builder().build();
    }
}
