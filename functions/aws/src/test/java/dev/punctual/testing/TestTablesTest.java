package dev.punctual.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestTablesTest {

    @Test
    void uniqueName_calledTwiceForSameClass_givesDistinctValidNames() {
        String a = TestTables.uniqueName(TestTablesTest.class, "ledger");
        String b = TestTables.uniqueName(TestTablesTest.class, "ledger");

        assertThat(a).isNotEqualTo(b).startsWith("punctual-testtablestest-ledger-");
        assertThat(a).matches("[a-z0-9_.-]{3,255}");
    }

    @Test
    void uniqueName_withCharactersDynamoRefuses_replacesThem() {
        assertThat(TestTables.uniqueName(TestTablesTest.class, "a b/c")).contains("-a-b-c-");
    }

    @Test
    void parseEndpoint_withoutScheme_failsNamingTheVariableAndAnExample() {
        assertThatThrownBy(() -> DynamoDbHarness.parseEndpoint("localhost"))
                .isInstanceOf(HarnessException.class)
                .hasMessageContaining("PUNCTUAL_DYNAMODB_ENDPOINT='localhost'")
                .hasMessageContaining("http://127.0.0.1:4566");
    }
}
