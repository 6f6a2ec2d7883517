package dev.punctual.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for the Lambda's hot path, written here rather than taken from Jackson: in a fresh JVM,
 * Jackson's data binding costs about 220 ms on first use and jackson-core's streaming API still about
 * 50 ms, against a cold-start budget in which everything Punctual adds must stay within 30 % of a bare
 * handler (docs/benchmarks.md, docs/decisions/0005-own-json-on-the-hot-path.md). The handler only
 * reads flat payloads and writes maps, lists and scalars, which this covers per RFC 8259. The CLI and
 * the tests keep using Jackson.
 */
public final class Json {

    private Json() {}

    /** Maps, collections, strings, numbers, booleans and null as JSON; anything else as its string form. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(128);
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value) {
        switch (value) {
            case null -> out.append("null");
            case String s -> string(out, s);
            case Boolean b -> out.append(b.booleanValue());
            case Integer i -> out.append(i.intValue());
            case Long l -> out.append(l.longValue());
            case BigInteger i -> out.append(i);
            case BigDecimal d -> out.append(d.toString());
            case Double d -> number(out, d);
            case Float f -> number(out, f.doubleValue());
            case Number n -> number(out, n.doubleValue());
            case Map<?, ?> map -> object(out, map);
            case Collection<?> list -> array(out, list);
            case Enum<?> e -> string(out, e.name());
            default -> string(out, String.valueOf(value));
        }
    }

    private static void number(StringBuilder out, double d) {
        if (Double.isFinite(d)) {
            out.append(d);
        } else {
            out.append("null"); // JSON has no NaN or infinity
        }
    }

    private static void object(StringBuilder out, Map<?, ?> map) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, String.valueOf(e.getKey()));
            out.append(':');
            write(out, e.getValue());
        }
        out.append('}');
    }

    private static void array(StringBuilder out, Collection<?> list) {
        out.append('[');
        boolean first = true;
        for (Object item : list) {
            if (!first) {
                out.append(',');
            }
            first = false;
            write(out, item);
        }
        out.append(']');
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Thrown for text that is not one JSON value. */
    public static final class NotJsonException extends Exception {
        private static final long serialVersionUID = 1L;

        NotJsonException(String message) {
            super(message);
        }
    }

    /**
     * Reads one JSON value: objects become ordered maps, arrays lists, whole numbers {@link Long} (or
     * {@link BigInteger} beyond its range), other numbers {@link Double}, and strings, booleans and null
     * themselves.
     */
    public static Object read(String text) throws NotJsonException {
        Reader reader = new Reader(text);
        Object value = reader.value();
        reader.skipSpace();
        if (!reader.atEnd()) {
            throw reader.error("unexpected content after the JSON value");
        }
        return value;
    }

    /** A recursive-descent reader over the text; nesting is bounded to keep the stack safe. */
    private static final class Reader {
        private static final int MAX_DEPTH = 64;

        private final String text;
        private int pos;
        private int depth;

        Reader(String text) {
            this.text = text;
        }

        boolean atEnd() {
            return pos >= text.length();
        }

        NotJsonException error(String what) {
            return new NotJsonException(what + " at character " + (pos + 1));
        }

        void skipSpace() {
            while (!atEnd() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
        }

        Object value() throws NotJsonException {
            skipSpace();
            if (atEnd()) {
                throw error("expected a value");
            }
            char c = text.charAt(pos);
            return switch (c) {
                case '{' -> nested(true);
                case '[' -> nested(false);
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", null);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("unexpected character '" + c + "'");
                }
            };
        }

        private Object nested(boolean object) throws NotJsonException {
            if (++depth > MAX_DEPTH) {
                throw error("nested deeper than " + MAX_DEPTH);
            }
            Object value = object ? object() : array();
            depth--;
            return value;
        }

        private Map<String, Object> object() throws NotJsonException {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++; // '{'
            skipSpace();
            if (peek('}')) {
                pos++;
                return map;
            }
            while (true) {
                skipSpace();
                if (!peek('"')) {
                    throw error("expected a field name");
                }
                String name = string();
                skipSpace();
                expect(':');
                // RFC 8259 leaves duplicates undefined; readers disagree on which wins, so a payload
                // such as {"kind":"ping","kind":"run"} means different things to different tools.
                if (map.containsKey(name)) {
                    throw error("duplicate field name \"" + (name.length() > 40 ? name.substring(0, 40) + "…" : name)
                            + "\"");
                }
                map.put(name, value());
                skipSpace();
                if (peek(',')) {
                    pos++;
                } else {
                    expect('}');
                    return map;
                }
            }
        }

        private List<Object> array() throws NotJsonException {
            List<Object> list = new ArrayList<>();
            pos++; // '['
            skipSpace();
            if (peek(']')) {
                pos++;
                return list;
            }
            while (true) {
                list.add(value());
                skipSpace();
                if (peek(',')) {
                    pos++;
                } else {
                    expect(']');
                    return list;
                }
            }
        }

        private String string() throws NotJsonException {
            pos++; // opening quote
            StringBuilder out = new StringBuilder();
            while (true) {
                if (atEnd()) {
                    throw error("unterminated string");
                }
                char c = text.charAt(pos++);
                if (c == '"') {
                    return out.toString();
                }
                if (c < 0x20) {
                    throw error("control character in string");
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (atEnd()) {
                    throw error("unterminated escape");
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> out.append(unicode());
                    default -> throw error("bad escape \\" + e);
                }
            }
        }

        private char unicode() throws NotJsonException {
            if (pos + 4 > text.length()) {
                throw error("short \\u escape");
            }
            int code = 0;
            for (int i = 0; i < 4; i++) {
                char h = text.charAt(pos + i);
                // ASCII hex only: Character.digit would also take fullwidth and other scripts' digits.
                int digit = h < 128 ? Character.digit(h, 16) : -1;
                if (digit < 0) {
                    throw error("bad \\u escape");
                }
                code = code * 16 + digit;
            }
            pos += 4;
            return (char) code;
        }

        /** Longer numbers are refused before any conversion, whose cost grows faster than their length. */
        static final int MAX_NUMBER_LENGTH = 64;

        /**
         * RFC 8259's number, exactly: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}. A
         * leading zero ({@code 04}), a bare point ({@code 1.}) or sign ({@code +1}) is not JSON, and what
         * one reader takes for a number another refuses.
         */
        private Object number() throws NotJsonException {
            int start = pos;
            if (peek('-')) {
                pos++;
            }
            if (peek('0')) {
                pos++;
                if (digitAt(pos)) {
                    throw error("a number with a leading zero is not JSON");
                }
            } else if (!digits()) {
                throw error("bad number");
            }
            boolean whole = true;
            if (peek('.')) {
                pos++;
                whole = false;
                if (!digits()) {
                    throw error("a number needs digits after its decimal point");
                }
            }
            if (peek('e') || peek('E')) {
                pos++;
                whole = false;
                if (peek('+') || peek('-')) {
                    pos++;
                }
                if (!digits()) {
                    throw error("a number needs digits in its exponent");
                }
            }
            if (pos - start > MAX_NUMBER_LENGTH) {
                throw error("a number longer than " + MAX_NUMBER_LENGTH + " characters");
            }
            String digits = text.substring(start, pos);
            if (whole) {
                BigInteger value = new BigInteger(digits);
                return value.bitLength() < 64 ? (Object) value.longValue() : value;
            }
            double value = Double.parseDouble(digits);
            if (Double.isInfinite(value)) {
                throw error("a number too large for a double");
            }
            return value;
        }

        /** Consumes 0-9 digits (and only those); whether there was at least one. */
        private boolean digits() {
            int from = pos;
            while (digitAt(pos)) {
                pos++;
            }
            return pos > from;
        }

        private boolean digitAt(int at) {
            return at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9';
        }

        private Object literal(String word, Object value) throws NotJsonException {
            if (!text.startsWith(word, pos)) {
                throw error("unexpected text");
            }
            pos += word.length();
            return value;
        }

        private boolean peek(char c) {
            return !atEnd() && text.charAt(pos) == c;
        }

        private void expect(char c) throws NotJsonException {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }
    }
}
