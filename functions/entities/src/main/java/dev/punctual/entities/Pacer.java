package dev.punctual.entities;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Client-side pacing of an import's writes below EventBridge Scheduler's per-operation request quotas
 * (CreateSchedule, UpdateSchedule, DeleteSchedule: 1,000 to 5,000 per second in the primary regions, 250
 * in the others; docs/entities.md). Each {@link #acquire} is one write; writes are spaced by
 * {@code 1/rate} seconds, so the SDK's adaptive retries are the second line, not the first. Time and the
 * wait are injected: a test moves its own clock instead of sleeping.
 */
public final class Pacer {

    /** Waits the given nanoseconds (a test records them and moves its clock). */
    @FunctionalInterface
    public interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private long next;
    private boolean started;

    /** @param perSecond writes per second, 1 to 10,000 */
    public Pacer(double perSecond, LongSupplier nanoTime, Sleeper sleeper) {
        if (!(perSecond >= 1 && perSecond <= 10_000)) {
            throw new IllegalArgumentException("rate: " + perSecond + " per second; accepted: 1 to 10000");
        }
        this.intervalNanos = Math.round(1e9 / perSecond);
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** The real clock and {@link Thread#sleep}. */
    public static Pacer perSecond(double perSecond) {
        return new Pacer(
                perSecond, System::nanoTime, nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    /** Waits until the next write may be sent; thread-safe (each caller gets its own slot). */
    public void acquire() {
        long wait;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            // A pause (a slow read, a retry) earns no burst afterwards: the slot is never in the past.
            long slot = started ? Math.max(next, now) : now;
            started = true;
            next = slot + intervalNanos;
            wait = slot - now;
        }
        if (wait > 0) {
            try {
                sleeper.sleepNanos(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while pacing writes", e);
            }
        }
    }
}
