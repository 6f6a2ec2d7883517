package dev.punctual.observability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VisibleTextTest {

    @Test
    void controlFormatAndNonAsciiWhitespaceCharacters_areEscaped_everythingElseIsKept() {
        assertThat(VisibleText.escaped("a\nb\rc\td\u001B[31me\u009Bf\u202Eg\u200Bh\u2028i\u2003j"))
                .isEqualTo("a\\u000Ab\\u000Dc\\u0009d\\u001B[31me\\u009Bf\\u202Eg\\u200Bh\\u2028i\\u2003j");
        assertThat(VisibleText.escaped("loading data: café, 東京, 🙂 (ticket #12)"))
                .isEqualTo("loading data: café, 東京, 🙂 (ticket #12)");
        assertThat(VisibleText.escaped(null)).isNull();
    }

    @Test
    void hasHidden_isWhetherEscapingWouldChangeTheText() {
        assertThat(VisibleText.hasHidden("loading data")).isFalse();
        assertThat(VisibleText.hasHidden("loading\u202Edata")).isTrue();
        assertThat(VisibleText.hasHidden("ops\u0000")).isTrue();
    }
}
