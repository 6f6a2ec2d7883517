package dev.punctual.ledger.dynamodb;

import dev.punctual.PunctualException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Expression attribute names and values for a set of expressions. DynamoDB rejects unused entries, so
 * only the placeholders that occur are sent; {@code #x} always names attribute {@code x}, which also
 * sidesteps reserved words such as {@code status}, {@code owner} and {@code ttl}.
 */
final class Placeholders {

    private static final Pattern NAME = Pattern.compile("#(\\w+)");
    private static final Pattern VALUE = Pattern.compile(":(\\w+)");

    private Placeholders() {}

    static Map<String, String> names(String... expressions) {
        Map<String, String> names = new HashMap<>();
        for (String e : expressions) {
            Matcher m = NAME.matcher(e == null ? "" : e);
            while (m.find()) {
                names.put(m.group(), m.group(1));
            }
        }
        return names;
    }

    static Map<String, AttributeValue> values(Map<String, AttributeValue> available, String... expressions) {
        Map<String, AttributeValue> values = new HashMap<>();
        for (String e : expressions) {
            Matcher m = VALUE.matcher(e == null ? "" : e);
            while (m.find()) {
                AttributeValue v = available.get(m.group());
                if (v == null) {
                    throw new PunctualException(
                            "ledger expression uses " + m.group() + " but no value was given: " + e);
                }
                values.put(m.group(), v);
            }
        }
        return values.isEmpty() ? null : values;
    }
}
