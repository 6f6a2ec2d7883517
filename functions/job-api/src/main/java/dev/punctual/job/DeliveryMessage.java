package dev.punctual.job;

import java.util.Objects;

/**
 * One external message.
 *
 * @param channel how it travels, e.g. {@code push} or {@code mail}
 * @param recipient who it is for (an address, a device token's owner id)
 * @param subject a short title; never a secret
 * @param body the content
 */
public record DeliveryMessage(String channel, String recipient, String subject, String body) {
    public DeliveryMessage {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(body, "body");
    }
}
