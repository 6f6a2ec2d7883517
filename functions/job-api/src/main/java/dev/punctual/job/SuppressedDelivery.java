package dev.punctual.job;

import dev.punctual.observability.StructuredLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The delivery port of a stage whose {@code externalDeliveryEnabled} is off: each message is counted in
 * a log line that names only its channel and sizes (recipient, subject and body are personal data or
 * may hold it, and are never logged) and kept in memory, so the job's result can say what it would
 * have sent. Nothing leaves.
 */
public final class SuppressedDelivery implements Delivery {

    private final String stage;
    private final StructuredLog log;
    private final List<DeliveryMessage> recorded = new ArrayList<>();

    public SuppressedDelivery(String stage, StructuredLog log) {
        this.stage = stage;
        this.log = log;
    }

    @Override
    public synchronized DeliveryReceipt send(DeliveryMessage message) {
        recorded.add(message);
        log.info(
                "external delivery suppressed",
                Map.of(
                        "stage", stage,
                        "channel", message.channel(),
                        "subject_chars", message.subject().length(),
                        "body_chars", message.body().length()));
        return new DeliveryReceipt.Suppressed(message.channel(), message.recipient(), stage);
    }

    /** The messages that would have been sent, in order. */
    public synchronized List<DeliveryMessage> recorded() {
        return List.copyOf(recorded);
    }
}
