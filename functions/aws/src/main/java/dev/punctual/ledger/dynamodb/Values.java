package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.spi.LeaseGrant;
import dev.punctual.ledger.spi.SlotClaim;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The values a request may use; {@link Placeholders} sends only those its expressions mention. */
final class Values {

    private final Map<String, AttributeValue> map = new HashMap<>();

    static Values of() {
        return new Values();
    }

    static Values lease(LeaseGrant g) {
        Values v = of().put(":token", Av.s(g.token()))
                .put(":zero", Av.n(0))
                .put(":one", Av.n(1))
                .put(":until", Av.millis(g.until()))
                .put(":now", Av.millis(g.now()))
                .put(":holder", Av.s(g.holder()))
                .put(":kind", Av.s(g.kind().name()))
                .put(":maintenance", Av.s("MAINTENANCE"))
                .put(":true", AttributeValue.fromBool(true));
        if (g.occurrence() != null) {
            v.occurrence(g.occurrence());
        }
        if (g.hold() != null) {
            v.put(":reason", Av.s(g.hold().reason()))
                    .put(":setBy", Av.s(g.hold().setBy()));
            g.hold().command().ifPresent(c -> v.put(":command", Av.s(c)));
        }
        return v;
    }

    Values slot(SlotClaim c) {
        return occurrence(c.key().scheduledTime())
                .status(":running", RunStatus.RUNNING)
                .put(":one", Av.n(1))
                .put(":token", Av.s(c.token()))
                .put(":trigger", Av.s(c.trigger().name()))
                .put(":schedulerAttempt", Av.n(c.schedulerAttempt()))
                .put(":now", Av.millis(c.now()))
                .put(":fence", Av.n(c.fence()))
                .put(":true", AttributeValue.fromBool(true))
                // Sent only by a claim of a job needing approval (APPROVAL_USED); unused values are not sent.
                .put(":tSet", Av.millisSet(java.util.List.of(c.key().scheduledTime())));
    }

    Values occurrence(Instant t) {
        return put(":t", Av.millis(t));
    }

    Values status(String placeholder, RunStatus status) {
        return put(placeholder, Av.s(status.name()));
    }

    Values put(String placeholder, AttributeValue value) {
        map.put(placeholder, value);
        return this;
    }

    Map<String, AttributeValue> forExpressions(String... expressions) {
        return Placeholders.values(map, expressions);
    }
}
