package dev.punctual.ledger.dynamodb;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Item size and write units by DynamoDB's documented rules, because the emulator's capacity figures do
 * not follow them (moto reports 0.5 for any UpdateItem and nothing for TransactWriteItems).
 * Size: attribute name bytes plus value bytes; a string is its UTF-8 length; a number about one byte
 * per two significant digits plus one. A standard write costs one unit per started KB of the item
 * (the larger of before and after for UpdateItem); a transactional write costs two per item.
 */
final class ItemSize {

    private static final int KB = 1024;

    private ItemSize() {}

    static int bytes(Map<String, AttributeValue> item) {
        return item.entrySet().stream()
                .mapToInt(e -> utf8(e.getKey()) + valueBytes(e.getValue()))
                .sum();
    }

    static int standardWriteUnits(int itemBytes) {
        return Math.max(1, (itemBytes + KB - 1) / KB);
    }

    static int transactionalWriteUnits(int itemBytes) {
        return 2 * standardWriteUnits(itemBytes);
    }

    private static int valueBytes(AttributeValue value) {
        if (value.s() != null) {
            return utf8(value.s());
        }
        if (value.n() != null) {
            String digits = new BigDecimal(value.n())
                    .stripTrailingZeros()
                    .unscaledValue()
                    .abs()
                    .toString();
            return (digits.length() + 1) / 2 + 1;
        }
        throw new IllegalArgumentException("the ledger stores only strings and numbers, not " + value);
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
