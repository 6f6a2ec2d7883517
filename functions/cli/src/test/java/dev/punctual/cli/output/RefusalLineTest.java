package dev.punctual.cli.output;

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

    /** Issue 40, item 5: an apostrophe in the advice is no quote, so the advice is not taken for a value. */
    @Test
    void advice_withAnApostrophe_betweenTwoValues_isNeverCut() {
        String advice = "the job's schedule, which no delivery or catch-up runs again " + "and so on ".repeat(25);
        String message = "--at: '2026-12-01T14:00:00Z' is not an occurrence of " + advice
                + "; accepted: an occurrence after '2026-11-30T14:00:00Z' (see punctual plan --job X)";

        assertThat(RefusalLine.of(message)).isEqualTo(message);
    }

    @Test
    void aLongRunWithoutSpacesInTheAdvice_isKept_whileTheSameRunAsAValueIsCut() {
        String zones = "Africa/Abidjan," + "America/New_York,".repeat(20) + "Asia/Seoul";
        String line = RefusalLine.of("--" + "v".repeat(300) + ": not an option; accepted: " + zones);

        assertThat(line)
                .isEqualTo("--" + "v".repeat(198) + "… (102 more characters): not an option; accepted: " + zones);
    }

    @Test
    void manyLongValues_areCutShorter_soThatTheLineFits_andTheAdviceIsWhole() {
        String advice = "; accepted: one of " + "the jobs the catalog declares, ".repeat(5) + "see punctual jobs";
        String line = RefusalLine.of("JOB: " + ("'" + "j".repeat(500) + "' ").repeat(12) + "are not jobs" + advice);

        assertThat(line.length()).isLessThanOrEqualTo(RefusalLine.LINE_MAX);
        assertThat(line)
                .startsWith("JOB: '" + "j".repeat(40) + "… (460 more characters)' ")
                .endsWith("are not jobs" + advice);
    }

    @Test
    void aValueWithAnApostropheInside_isOneValue() {
        String line = RefusalLine.of("--reason: '" + "it's ".repeat(60) + "' is too long; accepted: at most 200");

        assertThat(line)
                .startsWith("--reason: '" + "it's ".repeat(40) + "… (100 more characters)' is too long;")
                .endsWith("; accepted: at most 200");
    }

    /** Openers without a closer, and advice markers inside values: read once each, the result asserted. */
    @Test
    void adversarialQuotes_areReadInOnePass() {
        String openers = " 'a".repeat(100_000);
        String markers = "x: '" + "; accepted: ".repeat(50_000) + "' bad; accepted: y";

        assertThat(RefusalLine.of("x:" + openers)).startsWith("x: 'a 'a 'a").endsWith("more characters)");
        assertThat(RefusalLine.of(markers))
                .isEqualTo("x: '" + "; accepted: ".repeat(17).substring(0, 200) + "… (" + (12 * 50_000 - 200)
                        + " more characters)' bad; accepted: y");
    }

    @Test
    void aBidiOverrideAndALoneSurrogate_areEscaped() {
        assertThat(RefusalLine.of("--zone: 'Europe/Berlin\u202E' is not a zone; JOB: 'x\uD800y'"))
                .isEqualTo("--zone: 'Europe/Berlin\\u202e' is not a zone; JOB: 'x\\ud800y'");
    }
}
