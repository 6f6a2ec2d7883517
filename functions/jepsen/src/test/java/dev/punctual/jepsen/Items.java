package dev.punctual.jepsen;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Attribute helpers for the suite's domain items (single-table pk/sk, as a team's jobs write theirs). */
final class Items {

    /**
     * The guard a job's fenced write carries (docs/jobs.md): a runner whose lease was taken over holds a
     * lower fence than the one stored, so its late write is refused instead of undoing newer work.
     */
    static final String FENCE_GUARD = "attribute_not_exists(fence) OR fence <= :fence";

    private Items() {}

    static Map<String, AttributeValue> key(String partition, String sortKey) {
        return Map.of("pk", s(partition), "sk", s(sortKey));
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0 : Long.parseLong(value.n());
    }
}
