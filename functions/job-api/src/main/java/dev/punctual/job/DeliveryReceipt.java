package dev.punctual.job;

/** What happened to a message handed to {@link Delivery}. */
public sealed interface DeliveryReceipt {

    /** The message left for its recipient. */
    record Sent(String channel, String recipient) implements DeliveryReceipt {}

    /** The stage suppresses external delivery; the message was recorded, not sent. */
    record Suppressed(String channel, String recipient, String stage) implements DeliveryReceipt {}
}
