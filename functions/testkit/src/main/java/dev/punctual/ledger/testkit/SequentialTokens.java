package dev.punctual.ledger.testkit;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** Owner tokens that are unique within a test run and readable in failure messages. */
public final class SequentialTokens implements Supplier<String> {

    private final String prefix;
    private final AtomicLong next = new AtomicLong();

    public SequentialTokens(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public String get() {
        return prefix + "-" + next.incrementAndGet();
    }
}
