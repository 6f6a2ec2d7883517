package dev.punctual.ledger.dynamodb;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Loses the response of the first request of each named operation after DynamoDB applied it, as an
 * I/O error the SDK's default retry strategy retries: the retry meets the state the first send left.
 */
final class LoseResponses implements ExecutionInterceptor {

    private final Set<String> pending = ConcurrentHashMap.newKeySet();

    LoseResponses(String... operations) {
        pending.addAll(Set.of(operations));
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        if (pending.remove(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
            throw SdkClientException.builder()
                    .message("injected: connection reset after the request was applied")
                    .cause(new IOException("Connection reset"))
                    .build();
        }
    }

    boolean allLost() {
        return pending.isEmpty();
    }
}
