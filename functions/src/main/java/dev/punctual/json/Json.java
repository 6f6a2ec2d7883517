package dev.punctual.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.punctual.PunctualException;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for the Lambda's hot path, on jackson-core's streaming API only. Jackson's data binding costs
 * about 220 ms on its first use in a fresh JVM (measured, docs/benchmarks.md), more than everything else
 * Punctual adds to a cold start, and the handler only ever reads flat payloads and writes maps, lists
 * and scalars. The CLI keeps using data binding where it is not on that path.
 */
public final class Json {

    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {}

    /** Maps, collections, strings, numbers, booleans and null as JSON; anything else as its string form. */
    public static String write(Object value) {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = FACTORY.createGenerator(out)) {
            write(generator, value);
        } catch (IOException e) {
            throw new PunctualException("could not write JSON", e);
        }
        return out.toString();
    }

    private static void write(JsonGenerator g, Object value) throws IOException {
        switch (value) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case Boolean b -> g.writeBoolean(b);
            case Integer i -> g.writeNumber(i);
            case Long l -> g.writeNumber(l);
            case Double d -> g.writeNumber(d);
            case Float f -> g.writeNumber(f);
            case BigDecimal d -> g.writeNumber(d);
            case BigInteger i -> g.writeNumber(i);
            case Number n -> g.writeNumber(n.doubleValue());
            case Map<?, ?> map -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    g.writeFieldName(String.valueOf(e.getKey()));
                    write(g, e.getValue());
                }
                g.writeEndObject();
            }
            case Collection<?> list -> {
                g.writeStartArray();
                for (Object item : list) {
                    write(g, item);
                }
                g.writeEndArray();
            }
            case Enum<?> e -> g.writeString(e.name());
            default -> g.writeString(String.valueOf(value));
        }
    }

    /** Thrown for text that is not JSON at all. */
    public static final class NotJsonException extends Exception {
        private static final long serialVersionUID = 1L;

        NotJsonException(String message) {
            super(message);
        }
    }

    /**
     * Reads a JSON value: objects become ordered maps, arrays lists, numbers {@link Long} when whole (and in
     * range) or {@link Double}, and strings, booleans and null themselves.
     */
    public static Object read(String text) throws NotJsonException {
        try (JsonParser parser = FACTORY.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new NotJsonException("empty input");
            }
            Object value = value(parser, first);
            if (parser.nextToken() != null) {
                throw new NotJsonException("unexpected content after the JSON value");
            }
            return value;
        } catch (IOException e) {
            throw new NotJsonException(
                    e.getMessage() == null
                            ? "unreadable"
                            : e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static Object value(JsonParser p, JsonToken token) throws IOException {
        return switch (token) {
            case START_OBJECT -> object(p);
            case START_ARRAY -> array(p);
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT ->
                p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getDecimalValue() : p.getLongValue();
            case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new IOException("unexpected token " + token);
        };
    }

    private static Map<String, Object> object(JsonParser p) throws IOException {
        Map<String, Object> map = new LinkedHashMap<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            String name = p.currentName();
            map.put(name, value(p, p.nextToken()));
        }
        return map;
    }

    private static List<Object> array(JsonParser p) throws IOException {
        List<Object> list = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            list.add(value(p, t));
        }
        return list;
    }
}
