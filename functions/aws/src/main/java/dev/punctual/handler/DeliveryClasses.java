package dev.punctual.handler;

import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobTable;
import dev.punctual.json.Json;
import dev.punctual.observability.Redactor;
import dev.punctual.runtime.InvalidPayload;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.ResultJson;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * The classes of a delivery's own steps, initialised ahead of it by {@link WarmUp}: the payload's JSON
 * and time, a schedule in a zone, the redactor and the result; the SDK models of the claim
 * ({@code UpdateItem}), the commit ({@code TransactWriteItems}) and the lifecycle event
 * ({@code PutEvents}), and the requests the jobs' declared tables allow. An SDK model's first use spins a
 * hidden class per field accessor, some 250 on this path. Nothing here is sent or kept.
 *
 * <p>A fault here (a class the jar lost) is not reported: the delivery meets it again on the handler's
 * thread, where it is logged with the request id.
 */
final class DeliveryClasses {

    private static final String AN_INSTANT = "2027-01-01T00:00:00Z";

    private DeliveryClasses() {}

    static void beforeTheClaim() {
        try {
            Json.read("{\"kind\":\"scheduled\",\"scheduledTime\":\"" + AN_INSTANT + "\",\"attempt\":1}");
            OccurrenceCalculator.of(Schedule.parse("cron(0 9 * * ? *)", "Europe/Berlin"))
                    .next(Instant.parse(AN_INSTANT));
            Redactor.standard().line("warm-up");
            AttributeValue.fromS("warm-up");
            UpdateItemRequest.builder().build();
            UpdateItemResponse.builder().build();
            ConsumedCapacity.builder().build();
        } catch (Json.NotJsonException | RuntimeException | LinkageError e) {
            // met again, and reported, by the delivery itself
        }
    }

    /**
     * The requests the jobs' declared tables allow ({@link JobTable#actions()}): the job's own calls,
     * warmed because the catalog says which they are.
     */
    static void ofTheJobs(JobCatalog catalog) {
        try {
            catalog.tables().stream()
                    .flatMap(table -> table.actions().stream())
                    .distinct()
                    .forEach(DeliveryClasses::ofAction);
        } catch (RuntimeException | LinkageError e) {
            // met again, and reported, by the delivery itself
        }
    }

    private static void ofAction(String action) {
        switch (action) {
            case "dynamodb:GetItem" -> {
                GetItemRequest.builder().build();
                GetItemResponse.builder().build();
            }
            case "dynamodb:PutItem" -> {
                PutItemRequest.builder().build();
                PutItemResponse.builder().build();
            }
            case "dynamodb:Query" -> {
                QueryRequest.builder().build();
                QueryResponse.builder().build();
            }
            case "dynamodb:DeleteItem" -> {
                DeleteItemRequest.builder().build();
                DeleteItemResponse.builder().build();
            }
            case "dynamodb:Scan" -> {
                ScanRequest.builder().build();
                ScanResponse.builder().build();
            }
            default -> {
                // UpdateItem is the claim's; the batch and describe calls are rare enough to load on use.
            }
        }
    }

    static void afterTheJob() {
        try {
            TransactWriteItemsRequest.builder().build();
            TransactWriteItemsResponse.builder().build();
            TransactWriteItem.builder().build();
            Update.builder().build();
            Put.builder().build();
            CancellationReason.builder().build();
            PutEventsRequest.builder().build();
            PutEventsRequestEntry.builder().build();
            PutEventsResponse.builder().build();
            PutEventsResultEntry.builder().build();
            ResultJson.render(InvocationResult.invalid("warm-up", new InvalidPayload("WARM_UP", null, "warm-up")));
        } catch (RuntimeException | LinkageError e) {
            // met again, and reported, by the delivery itself
        }
    }
}
