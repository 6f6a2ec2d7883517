package dev.punctual.ledger.dynamodb;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/** Counts every request the ledger sends (successful or not) and the capacity DynamoDB reports for it. */
final class RequestMeter implements ExecutionInterceptor {

    /** One request: its operation and the capacity units reported (null when the server reports none). */
    record Sent(String operation, Double capacityUnits) {}

    private final List<Sent> sent = new CopyOnWriteArrayList<>();

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        sent.add(new Sent(operation(attributes), capacity(context.response())));
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        sent.add(new Sent(operation(attributes), null));
    }

    List<Sent> sent() {
        return List.copyOf(sent);
    }

    void reset() {
        sent.clear();
    }

    private static String operation(ExecutionAttributes attributes) {
        return attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    }

    private static Double capacity(SdkResponse response) {
        return switch (response) {
            case UpdateItemResponse r -> units(r.consumedCapacity());
            case PutItemResponse r -> units(r.consumedCapacity());
            case GetItemResponse r -> units(r.consumedCapacity());
            case TransactWriteItemsResponse r ->
                r.hasConsumedCapacity() && !r.consumedCapacity().isEmpty()
                        ? r.consumedCapacity().stream()
                                .mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits())
                                .sum()
                        : null;
            default -> null;
        };
    }

    private static Double units(ConsumedCapacity capacity) {
        return capacity == null ? null : capacity.capacityUnits();
    }
}
