package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.testkit.Fault;
import dev.punctual.ledger.testkit.FaultPlan;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * Injects the faults of a {@link FaultPlan} into real requests: a connection failure before sending,
 * a lost response after DynamoDB applied the request, throttling, and a transaction conflict.
 */
final class FaultInterceptor implements ExecutionInterceptor {

    private static final ExecutionAttribute<Fault> FAULT = new ExecutionAttribute<>("punctual.injectedFault");

    private final FaultPlan plan;

    FaultInterceptor(FaultPlan plan) {
        this.plan = plan;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        Fault fault = plan.next();
        attributes.putAttribute(FAULT, fault);
        if (fault == Fault.BEFORE_SEND) {
            throw SdkClientException.create("injected: connection refused before the request was sent");
        }
        if (fault == Fault.TRANSACTION_CONFLICT && !isRead(context.request())) {
            throw TransactionConflictException.builder()
                    .message("injected: Transaction is ongoing for the item")
                    .statusCode(400)
                    .awsErrorDetails(AwsErrorDetails.builder()
                            .errorCode("TransactionConflictException")
                            .serviceName("DynamoDb")
                            .build())
                    .build();
        }
        if (fault == Fault.THROTTLE) {
            throw ProvisionedThroughputExceededException.builder()
                    .message("injected: throughput exceeded")
                    .statusCode(400)
                    .awsErrorDetails(AwsErrorDetails.builder()
                            .errorCode("ProvisionedThroughputExceededException")
                            .serviceName("DynamoDb")
                            .build())
                    .build();
        }
    }

    /** DynamoDB reads return the last committed item; only writes conflict with a transaction. */
    private static boolean isRead(SdkRequest request) {
        return request instanceof GetItemRequest || request instanceof QueryRequest;
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        if (attributes.getAttribute(FAULT) == Fault.AFTER_APPLY) {
            throw SdkClientException.create("injected: response lost after DynamoDB applied the request");
        }
    }
}
