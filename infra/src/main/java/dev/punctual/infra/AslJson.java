package dev.punctual.infra;

import java.util.List;
import java.util.Map;

/**
 * Renders a state machine's definition (maps, lists, strings, whole numbers, null) as compact JSON, in
 * the maps' own iteration order: the same definition is the same bytes on every synth (decision 0006),
 * which a JSON library's defaults do not promise, and the infra module needs no JSON library for it.
 */
final class AslJson {

    private AslJson() {}

    static String render(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        switch (value) {
            case null -> out.append("null");
            case String text -> string(text, out);
            case Integer number -> out.append(number);
            case Long number -> out.append(number);
            case Boolean flag -> out.append(flag);
            case Map<?, ?> map -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string((String) entry.getKey(), out);
                    out.append(':');
                    write(entry.getValue(), out);
                }
                out.append('}');
            }
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(list.get(i), out);
                }
                out.append(']');
            }
            default ->
                throw new IllegalArgumentException(
                        "not a definition value: " + value.getClass().getName());
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
