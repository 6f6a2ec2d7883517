package dev.punctual.job;

/**
 * The port a job sends external messages through (push notifications, mail). Whether a message really
 * leaves depends on the stage: outside prod the runtime hands jobs a {@link SuppressedDelivery}, which
 * records and logs what would have been sent. Either way the job sees a normal outcome.
 */
public interface Delivery {

    /** Sends, or records, one message; returns what happened to it. */
    DeliveryReceipt send(DeliveryMessage message);
}
