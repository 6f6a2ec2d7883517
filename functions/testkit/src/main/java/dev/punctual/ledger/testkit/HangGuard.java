package dev.punctual.ledger.testkit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Waits for racing workers for as long as they make progress. A fixed time limit fails a race on a slow or
 * busy machine (CI once saw 16 threads on the emulator need more than five minutes at a load average of
 * 15 on 2 cores); this fails only when the progress count has stood still for the quiet limit, which is a
 * hang whatever the machine's speed.
 */
public final class HangGuard {

    private static final long POLL_MILLIS = 500;

    private HangGuard() {}

    /**
     * Waits for every future in turn; a worker's failure is rethrown as {@link ExecutionException}.
     *
     * @param progress a count the workers raise whenever they get an answer (a claim answered, a hold taken)
     * @param quietLimit how long the count may stand still before the race is called hung
     */
    public static void awaitAll(List<? extends Future<?>> futures, LongSupplier progress, Duration quietLimit)
            throws InterruptedException, ExecutionException {
        long seen = progress.getAsLong();
        long stillSince = System.nanoTime();
        for (Future<?> future : futures) {
            while (true) {
                try {
                    future.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException notYet) {
                    long now = progress.getAsLong();
                    if (now != seen) {
                        seen = now;
                        stillSince = System.nanoTime();
                    } else if (System.nanoTime() - stillSince > quietLimit.toNanos()) {
                        throw new AssertionError("no progress for " + quietLimit + " (a hang, not a slow machine);"
                                + " the progress count stood at " + now);
                    }
                }
            }
        }
    }
}
