package dev.punctual.ledger.dynamodb;

import java.util.concurrent.locks.ReentrantLock;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Lets one request at a time reach the emulator. DynamoDB evaluates a conditional write atomically;
 * moto 5.2.5 does not under concurrent requests (a probe of 16 threads racing an
 * {@code attribute_not_exists} put had two winners in 3 of 30 rounds). Serialising whole requests
 * restores DynamoDB's per-request atomicity while the ledger's threads still interleave between
 * requests, which is where its own races are.
 */
final class OneRequestAtATime implements ExecutionInterceptor {

    private static final ExecutionAttribute<Boolean> HELD = new ExecutionAttribute<>("punctual.serialised");

    private final ReentrantLock lock = new ReentrantLock(true);

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        lock.lock();
        attributes.putAttribute(HELD, true);
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        unlock(attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        unlock(attributes);
    }

    private void unlock(ExecutionAttributes attributes) {
        if (Boolean.TRUE.equals(attributes.getAttribute(HELD))) {
            attributes.putAttribute(HELD, false);
            lock.unlock();
        }
    }
}
