package dev.punctual.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void write_nestedMapsListsAndScalars_isWhatDataBindingReadsBack() throws Exception {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("text", "quote \" and newline \n");
        value.put("whole", 42L);
        value.put("fraction", 1.5);
        value.put("flag", true);
        value.put("nothing", null);
        value.put("list", List.of(1, "two", Map.of("three", 3)));

        String json = Json.write(value);

        @SuppressWarnings("unchecked")
        Map<String, Object> back = new ObjectMapper().readValue(json, Map.class);
        assertThat(back.keySet()).containsExactly("text", "whole", "fraction", "flag", "nothing", "list");
        assertThat(back.get("text")).isEqualTo("quote \" and newline \n");
        assertThat(back.get("whole")).isEqualTo(42);
        assertThat(back.get("fraction")).isEqualTo(1.5);
        assertThat(back.get("flag")).isEqualTo(true);
        assertThat(back.get("nothing")).isNull();
        assertThat(back.get("list")).isEqualTo(List.of(1, "two", Map.of("three", 3)));
    }

    @Test
    void read_object_keepsOrderAndTypes() throws Exception {
        Object value = Json.read("{\"b\":\"x\",\"a\":7,\"c\":2.5,\"d\":false,\"e\":null,\"f\":[1,{\"g\":\"h\"}]}");

        assertThat(value).isInstanceOf(Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) value;
        assertThat(map.keySet()).containsExactly("b", "a", "c", "d", "e", "f");
        assertThat(map.get("a")).isEqualTo(7L);
        assertThat(map.get("c")).isEqualTo(2.5);
        assertThat(map.get("d")).isEqualTo(false);
        assertThat(map.containsKey("e")).isTrue();
        assertThat(map.get("f")).isEqualTo(List.of(1L, Map.of("g", "h")));
    }

    @Test
    void read_textThatIsNotJson_orHasTrailingContent_isRefused() {
        assertThatThrownBy(() -> Json.read("not json")).isInstanceOf(Json.NotJsonException.class);
        assertThatThrownBy(() -> Json.read("{} {}")).isInstanceOf(Json.NotJsonException.class);
        assertThatThrownBy(() -> Json.read("{\"a\":")).isInstanceOf(Json.NotJsonException.class);
    }

    @Test
    void write_controlCharactersAndUnicode_areEscapedSoJacksonReadsTheSameString() throws Exception {
        String tricky = "tab\t bell\u0007 nul\u0000 line\u2028 emoji \uD83D\uDE00 é \\ / \"";

        String json = Json.write(Map.of("s", tricky));

        assertThat(new ObjectMapper().readTree(json).get("s").asText()).isEqualTo(tricky);
        assertThat(json).doesNotContain("\u0007").doesNotContain("\u0000");
    }

    @Test
    void read_escapesNumbersAndWhitespace_asJacksonWould() throws Exception {
        String text = " { \"a\" : \"x\\u00e9\\n\\\"y\\\"\" , \"n\" : -12 , \"big\" : 123456789012345678901234567890,"
                + " \"f\" : 1.5e3 , \"arr\" : [ ] , \"obj\" : { } } ";

        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) Json.read(text);

        assertThat(map.get("a")).isEqualTo("x\u00e9\n\"y\"");
        assertThat(map.get("n")).isEqualTo(-12L);
        assertThat(map.get("big")).isEqualTo(new java.math.BigInteger("123456789012345678901234567890"));
        assertThat(map.get("f")).isEqualTo(1500.0);
        assertThat(map.get("arr")).isEqualTo(List.of());
        assertThat(map.get("obj")).isEqualTo(Map.of());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {
                "",
                "   ",
                "{",
                "[1,]",
                "{\"a\" 1}",
                "{\"a\":tru}",
                "\"unterminated",
                "{\"a\":\"\\x\"}",
                "01x",
                "-",
                "04",
                "-04",
                "1.",
                "1.e5",
                "1e",
                "1e+",
                "+1",
                ".5",
                "1e400",
                "12345678901234567890123456789012345678901234567890123456789012345",
                "\"\\u０041\""
            })
    void read_malformedText_isRefusedWithAPosition(String text) {
        assertThatThrownBy(() -> Json.read(text))
                .isInstanceOf(Json.NotJsonException.class)
                .hasMessageContaining("at character");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"0", "-0", "0.5", "1e5", "1E+5", "-1.5e-3", "9223372036854775807"})
    void read_everyFormOfRfc8259Number_isANumber(String text) throws Exception {
        assertThat(Json.read(text)).isInstanceOf(Number.class);
    }

    @Test
    void read_aNumberOfThreeMillionDigits_isRefusedForItsLength_beforeAnyConversion() {
        String huge = "{\"max\":" + "7".repeat(3_000_000) + "}";

        assertThatThrownBy(() -> Json.read(huge))
                .isInstanceOf(Json.NotJsonException.class)
                .hasMessageContaining("longer than 64 characters");
    }

    @Test
    void roundTrip_ofRandomNestedValues_matchesJacksonsReading() throws Exception {
        java.util.Random random = new java.util.Random(20261129);
        ObjectMapper jackson = new ObjectMapper();
        for (int i = 0; i < 300; i++) {
            Object value = randomValue(random, 3);
            String written = Json.write(value);

            assertThat(jackson.readTree(written))
                    .as(written)
                    .isEqualTo(jackson.readTree(jackson.writeValueAsString(value)));
            assertThat(Json.write(Json.read(written))).isEqualTo(written);
        }
    }

    private static Object randomValue(java.util.Random r, int depth) {
        int kind = r.nextInt(depth > 0 ? 7 : 5);
        return switch (kind) {
            case 0 -> null;
            case 1 -> r.nextBoolean();
            case 2 -> r.nextLong();
            case 3 -> randomString(r);
            case 4 -> (double) r.nextInt(1000) / 8;
            case 5 -> {
                List<Object> list = new java.util.ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    list.add(randomValue(r, depth - 1));
                }
                yield list;
            }
            default -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    map.put(randomString(r), randomValue(r, depth - 1));
                }
                yield map;
            }
        };
    }

    private static String randomString(java.util.Random r) {
        StringBuilder s = new StringBuilder();
        for (int i = r.nextInt(8); i > 0; i--) {
            s.append((char) (r.nextBoolean() ? r.nextInt(0x80) : r.nextInt(0xD7FF)));
        }
        return s.toString();
    }
}
