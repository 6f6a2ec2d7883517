package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one place a refusal or failure line is made: redacted, one line, each echoed value and the line bounded. */
class RefusalLineTest {

    @Test
    void aLongQuotedValue_keepsItsQuotes_itsFirst200Characters_andSaysHowManyMore() {
        String line = RefusalLine.of("--at: '" + "v".repeat(1000) + "' is not an instant; accepted: ISO-8601");

        assertThat(line)
                .isEqualTo("--at: '" + "v".repeat(200) + "… (800 more characters)' is not an instant; accepted:"
                        + " ISO-8601");
    }

    @Test
    void aLongUnquotedValue_isCutTheSameWay() {
        assertThat(RefusalLine.of("--" + "v".repeat(300) + ": not an option of this command"))
                .isEqualTo("--" + "v".repeat(198) + "… (102 more characters): not an option of this command");
    }

    @Test
    void aLongLineOfShortWords_isCutAt2000Characters() {
        String line = RefusalLine.of("reason: " + "word ".repeat(1000));

        assertThat(line).startsWith("reason: word").endsWith("… (3007 more characters)");
        assertThat(line.length()).isEqualTo(RefusalLine.LINE_MAX + "… (3007 more characters)".length());
    }

    @Test
    void aSecretNearTheCut_isMaskedWhole_beforeTheValueIsCut() {
        String key = "AKIA" + "IOSFODNN7EXAMPLE";

        String line = RefusalLine.of("JOB: '" + "v".repeat(190) + " " + key + " " + "v".repeat(500) + "' is not a job");

        // Cut first, the value would end in "AKIAIOSFO", too short for the key's shape to be seen.
        assertThat(line).doesNotContain("AKIA").contains(" [REDACTED").contains("more characters)");
    }

    @Test
    void personalData_andControlCharacters_doNotReachTheTerminal() {
        String line = RefusalLine.of("--reason: 'call bob@example.com\u001b[2J\tnow' is too long");

        assertThat(line)
                .isEqualTo("--reason: 'call [email]\\u001b[2J\\tnow' is too long")
                .doesNotContain("\u001b");
    }

    @Test
    void aMultiLineMessage_isOneLine_asBefore() {
        assertThat(RefusalLine.of("Error: Missing required option:\n   '--to'\n"))
                .isEqualTo("Missing required option: '--to'");
    }
}
