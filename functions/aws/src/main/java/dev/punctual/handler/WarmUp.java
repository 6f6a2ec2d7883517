package dev.punctual.handler;

import dev.punctual.job.JobCatalog;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * A second thread in Lambda's init phase, as Spring Boot's background pre-initialiser: while the
 * handler's thread builds the DynamoDB client (the first thing a delivery needs), this one loads the
 * job catalog, builds the event client (the last thing a delivery needs) and initialises the classes
 * of the delivery's own steps ({@link DeliveryClasses}). The handler's thread takes the catalog and the
 * client once its DynamoDB client is built, waiting only if this one is not done. It sends nothing, writes nothing and
 * creates no unique value, so a SnapStart snapshot may hold its work (the priming hook waits for it).
 */
final class WarmUp {

    private final CompletableFuture<JobCatalog> catalog = new CompletableFuture<>();
    private final CompletableFuture<EventBridgeClient> events = new CompletableFuture<>();
    private final Thread thread;

    private WarmUp(Supplier<JobCatalog> catalogLoader, Supplier<EventBridgeClient> eventsClient) {
        this.thread = Thread.ofPlatform()
                .daemon() // a function that returns before the warm-up ends is not held up
                .name("punctual-warm-up")
                .unstarted(() -> run(catalogLoader, eventsClient));
    }

    /** Starts the warm-up; returns at once. */
    static WarmUp start(Supplier<JobCatalog> catalogLoader, Supplier<EventBridgeClient> eventsClient) {
        WarmUp warmUp = new WarmUp(catalogLoader, eventsClient);
        warmUp.thread.start();
        return warmUp;
    }

    /** The job catalog; a fault loading it (no provider, two) is thrown here, in the init phase. */
    JobCatalog catalog() {
        return join(catalog);
    }

    /** The event client; a fault building it is thrown here, in the init phase. */
    EventBridgeClient events() {
        return join(events);
    }

    /** Waits for the warm-up to end (the SnapStart priming hook, before the snapshot). */
    void await() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The catalog first and the event client second (the init phase waits for both), then the classes
     * in the order the handler's thread meets them.
     */
    private void run(Supplier<JobCatalog> catalogLoader, Supplier<EventBridgeClient> eventsClient) {
        // Both futures are completed, with a value or a fault, before anything else can fail here:
        // the handler's thread never waits for what this one will not build.
        complete(catalog, catalogLoader);
        complete(events, eventsClient);
        DeliveryClasses.beforeTheClaim();
        catalog.thenAccept(DeliveryClasses::ofTheJobs);
        DeliveryClasses.afterTheJob();
    }

    private static <T> void complete(CompletableFuture<T> future, Supplier<T> supplier) {
        try {
            future.complete(supplier.get());
        } catch (RuntimeException | Error e) {
            future.completeExceptionally(e);
        }
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }
}
