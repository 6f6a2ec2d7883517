package dev.punctual.entities;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Counts a client's calls by operation name (each call once, however often the SDK retried it). */
final class CallCounter implements ExecutionInterceptor {

    static final List<String> WRITES = List.of("CreateSchedule", "UpdateSchedule", "DeleteSchedule");

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        calls.computeIfAbsent(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), k -> new AtomicInteger())
                .incrementAndGet();
    }

    int of(String operation) {
        AtomicInteger count = calls.get(operation);
        return count == null ? 0 : count.get();
    }

    int writes() {
        return WRITES.stream().mapToInt(this::of).sum();
    }

    void reset() {
        calls.clear();
    }
}
