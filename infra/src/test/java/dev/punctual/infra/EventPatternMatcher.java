package dev.punctual.infra;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * EventBridge's event-pattern matching for the subset Punctual's rules use, read from the synthesised
 * template: nested objects and arrays of literal values (strings, numbers, booleans). A field matches
 * when the event has it and its value (or, for an array, one of its elements) equals one of the
 * pattern's values; every field of the pattern must match. A content filter (an object inside the
 * array, such as {@code {"prefix": ...}}) is refused rather than guessed at.
 */
final class EventPatternMatcher {

    private EventPatternMatcher() {}

    static boolean matches(JsonNode pattern, JsonNode event) {
        for (Map.Entry<String, JsonNode> field : pattern.properties()) {
            JsonNode value = event.get(field.getKey());
            if (value == null) {
                return false;
            }
            JsonNode expected = field.getValue();
            boolean ok = expected.isObject() ? value.isObject() && matches(expected, value) : anyEqual(expected, value);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean anyEqual(JsonNode allowed, JsonNode value) {
        if (!allowed.isArray()) {
            throw new IllegalArgumentException("a pattern's leaf must be an array of values, was " + allowed);
        }
        for (JsonNode candidate : allowed) {
            if (candidate.isObject() || candidate.isArray()) {
                throw new IllegalArgumentException("content filters are not supported here: " + candidate);
            }
            if (value.isArray()) {
                for (JsonNode element : value) {
                    if (element.equals(candidate)) {
                        return true;
                    }
                }
            } else if (value.equals(candidate)) {
                return true;
            }
        }
        return false;
    }
}
