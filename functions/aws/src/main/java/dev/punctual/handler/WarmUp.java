package dev.punctual.handler;

import dev.punctual.json.Json;
import dev.punctual.observability.Redactor;
import dev.punctual.runtime.InvalidPayload;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.ResultJson;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A second thread in Lambda's init phase, as Spring Boot's background pre-initialiser. The first request
 * of a fresh JVM is a delivery's slowest step: the SDK's marshalling, signing, endpoint rules and HTTP
 * stages are all first met there. Nothing else the init does depends on them, so while the handler's
 * thread loads the catalog, builds the clients and wires the runtime, this one walks a delivery's SDK
 * calls through without the network ({@link Rehearsal}), then its payload and result classes. The
 * delivery's own calls then find that code ready.
 *
 * <p>Nothing waits for it but the SnapStart priming hook, so that a snapshot holds its work done, and
 * that only for a bounded time. It sends nothing, writes nothing and creates no unique value. A fault
 * here (a class the jar lost) is not reported: the delivery meets it again on the handler's thread,
 * where it is logged with the request id.
 */
final class WarmUp {

    private static final String AN_INSTANT = "2027-01-01T00:00:00Z";

    /** How long the priming hook waits: losing the warm-up costs speed, never a snapshot. */
    static final Duration AWAIT_AT_MOST = Duration.ofSeconds(10);

    private final Thread thread;
    private final CountDownLatch done = new CountDownLatch(1);

    private WarmUp(Supplier<Rehearsal> rehearsal) {
        this.thread = Thread.ofPlatform()
                .daemon() // a function that returns before the warm-up ends is not held up
                .name("punctual-warm-up")
                .unstarted(() -> {
                    run(rehearsal);
                    done.countDown();
                });
    }

    /** Starts the warm-up; returns at once. */
    static WarmUp start(Supplier<Rehearsal> rehearsal) {
        WarmUp warmUp = new WarmUp(rehearsal);
        warmUp.thread.start();
        return warmUp;
    }

    /**
     * Waits for the warm-up to go through all its steps, at most {@link #AWAIT_AT_MOST} (the SnapStart
     * priming hook, before the snapshot).
     *
     * @return whether it did; false if it is still running or its thread died
     */
    boolean await() {
        return await(AWAIT_AT_MOST);
    }

    /** As {@link #await()}, bounded by {@code atMost} (tests that expect the end wait for it on a slow machine). */
    boolean await(Duration atMost) {
        try {
            return done.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void run(Supplier<Rehearsal> rehearsals) {
        try (Rehearsal rehearsal = rehearsals.get()) {
            rehearsal.delivery();
        } catch (RuntimeException | LinkageError e) {
            // met again, and reported, by the delivery itself
        }
        try {
            payloadAndResult();
        } catch (Json.NotJsonException | RuntimeException | LinkageError e) {
            // met again, and reported, by the delivery itself
        }
    }

    private static void payloadAndResult() throws Json.NotJsonException {
        Json.read("{\"kind\":\"scheduled\",\"scheduled_time\":\"" + AN_INSTANT + "\",\"attempt\":1}");
        OccurrenceCalculator.of(Schedule.parse("cron(0 9 * * ? *)", "Europe/Berlin"))
                .next(Instant.parse(AN_INSTANT));
        Redactor.standard().line("warm-up: token=x"); // a key, so the redactor's key classifier is loaded too
        ResultJson.render(InvocationResult.invalid("warm-up", new InvalidPayload("WARM_UP", null, "warm-up")));
    }
}
