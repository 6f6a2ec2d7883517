package dev.punctual.entities;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs one piece of work per item on a fixed number of writers (the calling thread and {@code writers - 1}
 * more), because a reconcile is bound by each call's round trip, not by the machine: one writer reaches
 * about 25 calls a second at AWS's usual 40 ms, well below the scheduler's quotas and the {@link Pacer}.
 *
 * <p>Results come back in the items' order; {@code done} is told of each result as it completes, one at a
 * time (callers need no locking of their own). The first failure stops the handing out of items; the
 * writers finish what they hold, and it is thrown then, so nothing is left half-sent behind the caller's
 * back. What was done before it is done (a reconcile is resumed by running it again).
 */
final class Writers {

    /** The most writers a reconcile takes: more would only queue behind the scheduler's quotas. */
    static final int MAX = 64;

    private final int count;

    Writers(int count) {
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException("writers: " + count + "; accepted: 1 to " + MAX);
        }
        this.count = count;
    }

    int count() {
        return count;
    }

    <T, R> List<R> each(List<T> items, Function<T, R> work, Consumer<R> done) {
        Objects.requireNonNull(work, "work");
        Objects.requireNonNull(done, "done");
        Object[] results = new Object[items.size()];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Object doneLock = new Object();
        Runnable writer = () -> {
            for (int i = next.getAndIncrement();
                    i < items.size() && failure.get() == null;
                    i = next.getAndIncrement()) {
                try {
                    R result = work.apply(items.get(i));
                    results[i] = result;
                    synchronized (doneLock) {
                        done.accept(result);
                    }
                } catch (RuntimeException | Error e) {
                    if (!failure.compareAndSet(null, e)) {
                        failure.get().addSuppressed(e);
                    }
                }
            }
        };
        List<Thread> others = new ArrayList<>();
        int extra = Math.min(count, items.size()) - 1;
        for (int w = 0; w < extra; w++) {
            others.add(Thread.ofPlatform()
                    .name("punctual-writer-" + (w + 1))
                    .daemon()
                    .start(writer));
        }
        writer.run();
        joinAll(others);
        Throwable first = failure.get();
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        List<R> ordered = (List<R>) Arrays.asList(results);
        return List.copyOf(ordered);
    }

    private static void joinAll(List<Thread> threads) {
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    // Keep waiting: returning while writers still send would leave calls behind the caller.
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
