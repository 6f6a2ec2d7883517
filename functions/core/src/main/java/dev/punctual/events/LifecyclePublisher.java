package dev.punctual.events;

/**
 * Sends lifecycle events. Publishing is best effort by contract: an implementation never throws, and a
 * failure to publish never changes the outcome of the run it describes (the run item is the record).
 */
public interface LifecyclePublisher {

    void publish(LifecycleEvent event);

    /** For stages and tests without a bus. */
    LifecyclePublisher NONE = event -> {};
}
