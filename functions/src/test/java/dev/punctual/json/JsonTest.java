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
}
