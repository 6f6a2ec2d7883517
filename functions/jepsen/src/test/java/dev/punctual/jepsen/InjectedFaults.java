package dev.punctual.jepsen;

import dev.punctual.ledger.testkit.Fault;
import dev.punctual.ledger.testkit.FaultPlan;
import java.io.IOException;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * On the ledger client of one worker process: injects the faults of a seeded {@link FaultPlan} into
 * real HTTP attempts (so with the SDK's retries on, the SDK retries some of them as it would in
 * production) and counts what it injected. Lost responses and connection failures carry an
 * {@link IOException} cause, as real ones do, so the SDK treats them as retryable.
 *
 * <p>Also counts every request and every write request (on whichever clients it is added to), so the
 * worker can tell how many writes a refused payload caused: none, or it is an anomaly.
 */
final class InjectedFaults implements ExecutionInterceptor {

    private static final ExecutionAttribute<Fault> FAULT = new ExecutionAttribute<>("punctual.jepsen.fault");

    private final FaultPlan plan;
    private final Map<Fault, AtomicLong> injected = new EnumMap<>(Fault.class);
    private final AtomicLong requests;
    private final AtomicLong writes;

    /** @param plan null to inject nothing and only count */
    InjectedFaults(FaultPlan plan, AtomicLong requests, AtomicLong writes) {
        this.plan = plan;
        this.requests = requests;
        this.writes = writes;
        for (Fault fault : Fault.values()) {
            injected.put(fault, new AtomicLong());
        }
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        requests.incrementAndGet();
        if (isWrite(context.request())) {
            writes.incrementAndGet();
        }
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        Fault fault = plan == null ? Fault.NONE : plan.next();
        if (fault == Fault.TRANSACTION_CONFLICT && !isWrite(context.request())) {
            fault = Fault.NONE; // DynamoDB answers a read with the last committed item; only writes conflict
        }
        attributes.putAttribute(FAULT, fault);
        switch (fault) {
            case BEFORE_SEND -> {
                injected.get(fault).incrementAndGet();
                throw SdkClientException.builder()
                        .message("injected: connection refused before the request was sent")
                        .cause(new IOException("Connection refused"))
                        .build();
            }
            case THROTTLE -> {
                injected.get(fault).incrementAndGet();
                throw ProvisionedThroughputExceededException.builder()
                        .message("injected: throughput exceeded")
                        .statusCode(400)
                        .awsErrorDetails(details("ProvisionedThroughputExceededException"))
                        .build();
            }
            case TRANSACTION_CONFLICT -> {
                injected.get(fault).incrementAndGet();
                throw TransactionConflictException.builder()
                        .message("injected: Transaction is ongoing for the item")
                        .statusCode(400)
                        .awsErrorDetails(details("TransactionConflictException"))
                        .build();
            }
            default -> {}
        }
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        if (attributes.getAttribute(FAULT) == Fault.AFTER_APPLY) {
            injected.get(Fault.AFTER_APPLY).incrementAndGet();
            throw SdkClientException.builder()
                    .message("injected: response lost after DynamoDB applied the request")
                    .cause(new IOException("Connection reset"))
                    .build();
        }
    }

    /** Injected faults by kind (lost responses are AFTER_APPLY). */
    Map<String, Long> counts() {
        Map<String, Long> out = new LinkedHashMap<>();
        injected.forEach((fault, n) -> {
            if (fault != Fault.NONE) {
                out.put(fault.name(), n.get());
            }
        });
        return out;
    }

    static boolean isWrite(SdkRequest request) {
        return request instanceof PutItemRequest
                || request instanceof UpdateItemRequest
                || request instanceof DeleteItemRequest
                || request instanceof TransactWriteItemsRequest
                || request instanceof BatchWriteItemRequest;
    }

    private static AwsErrorDetails details(String code) {
        return AwsErrorDetails.builder().errorCode(code).serviceName("DynamoDb").build();
    }
}
