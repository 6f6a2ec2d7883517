package dev.punctual.examples;

import static dev.punctual.examples.DemoTable.s;

import dev.punctual.job.Delivery;
import dev.punctual.job.DeliveryMessage;
import dev.punctual.job.DeliveryReceipt;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The demo's real delivery: a message goes into the outbox partition, from which a push or mail
 * service would send it. Used only in stages that enable external delivery.
 */
public final class OutboxDelivery implements Delivery {

    private final DemoTable table;
    private final Clock clock;
    private final Supplier<String> ids;

    /** @param ids a fresh id per message, so two messages of one instant do not collide */
    public OutboxDelivery(DemoTable table, Clock clock, Supplier<String> ids) {
        this.table = table;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public DeliveryReceipt send(DeliveryMessage message) {
        Map<String, AttributeValue> item =
                new HashMap<>(DemoTable.key(DemoTable.OUTBOX, clock.instant() + "#" + ids.get()));
        item.put("channel", s(message.channel()));
        item.put("recipient", s(message.recipient()));
        item.put("subject", s(message.subject()));
        item.put("body", s(message.body()));
        table.dynamo().putItem(b -> b.tableName(table.table()).item(item));
        return new DeliveryReceipt.Sent(message.channel(), message.recipient());
    }
}
