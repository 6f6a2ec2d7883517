package dev.punctual.examples;

import static dev.punctual.examples.DemoTable.s;

import dev.punctual.job.Delivery;
import dev.punctual.job.DeliveryMessage;
import dev.punctual.job.DeliveryReceipt;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The demo's real delivery: a message goes into the outbox partition, from which a push or mail
 * service would send it. Used only in stages that enable external delivery.
 */
public final class OutboxDelivery implements Delivery {

    private final DemoTable table;
    private final Clock clock;

    public OutboxDelivery(DemoTable table, Clock clock) {
        this.table = table;
        this.clock = clock;
    }

    @Override
    public DeliveryReceipt send(DeliveryMessage message) {
        Map<String, AttributeValue> item =
                new HashMap<>(DemoTable.key(DemoTable.OUTBOX, clock.instant() + "#" + UUID.randomUUID()));
        item.put("channel", s(message.channel()));
        item.put("recipient", s(message.recipient()));
        item.put("subject", s(message.subject()));
        item.put("body", s(message.body()));
        table.dynamo().putItem(b -> b.tableName(table.table()).item(item));
        return new DeliveryReceipt.Sent(message.channel(), message.recipient());
    }
}
