package dev.punctual.ledger.dynamodb;

import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Attribute value conversions; instants are epoch millis on the wire, TTL epoch seconds. */
final class Av {

    private Av() {}

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    static AttributeValue millis(Instant value) {
        return n(value.toEpochMilli());
    }

    /** A number set of epoch millis (the lock item's skip marks, decision 0033). */
    static AttributeValue millisSet(java.util.Collection<Instant> values) {
        return AttributeValue.fromNs(
                values.stream().map(v -> Long.toString(v.toEpochMilli())).toList());
    }

    static AttributeValue ttl(Instant value) {
        return n(value.getEpochSecond());
    }

    static String str(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    static long num(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? 0 : Long.parseLong(v.n());
    }

    static Instant instant(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : Instant.ofEpochMilli(Long.parseLong(v.n()));
    }

    static Instant ttlInstant(Map<String, AttributeValue> item) {
        AttributeValue v = item.get(Attr.TTL);
        return v == null ? null : Instant.ofEpochSecond(Long.parseLong(v.n()));
    }

    static <E extends Enum<E>> E enumOf(Map<String, AttributeValue> item, String name, Class<E> type) {
        String v = str(item, name);
        return v == null ? null : Enum.valueOf(type, v);
    }
}
