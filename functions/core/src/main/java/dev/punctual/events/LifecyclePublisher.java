package dev.punctual.events;

import dev.punctual.observability.StructuredLog;

/**
 * Sends lifecycle events. Publishing is best effort by contract: an implementation never throws, and a
 * failure to publish never changes the outcome of the run it describes (the run item is the record).
 */
public interface LifecyclePublisher {

    void publish(LifecycleEvent event);

    /**
     * Publishes on behalf of one invocation: an implementation that reports a failure says it on
     * {@code invocationLog}, whose lines carry the invocation's request id.
     */
    default void publish(LifecycleEvent event, StructuredLog invocationLog) {
        publish(event);
    }

    /** For stages and tests without a bus. */
    LifecyclePublisher NONE = event -> {};
}
