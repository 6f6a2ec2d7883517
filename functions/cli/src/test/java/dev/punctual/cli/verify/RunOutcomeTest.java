package dev.punctual.cli.verify;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunOutcomeTest {

    @Test
    void handlerResult_firstOccurrenceRead() {
        RunOutcome r = RunOutcome.parse(
                DAILY,
                "{\"status\":\"OK\",\"occurrences\":[{\"occurrence\":\"2026-11-30T14:00:00Z\",\"outcome\":\"SKIP\","
                        + "\"reason\":\"ALREADY_DONE\",\"detail\":null}]}",
                false);

        assertThat(r.is("SKIP", "ALREADY_DONE")).isTrue();
        assertThat(r.describe()).isEqualTo("SKIP ALREADY_DONE at 2026-11-30T14:00:00Z");
    }

    @Test
    void refusedPayload_isInvalidWithItsCode() {
        RunOutcome r = RunOutcome.parse(
                DAILY,
                "{\"status\":\"INVALID\",\"occurrences\":[],\"error\":{\"code\":\"NOT_DUE\",\"message\":\"in the future\"}}",
                false);

        assertThat(r.describe()).isEqualTo("INVALID NOT_DUE (in the future)");
    }

    @Test
    void functionError_isErrorWithLambdasType() {
        RunOutcome r = RunOutcome.parse(
                DAILY, "{\"errorMessage\":\"boom\",\"errorType\":\"java.lang.IllegalStateException\"}", true);

        assertThat(r.outcome()).isEqualTo("ERROR");
        assertThat(r.describe()).contains("boom");
    }

    @Test
    void pass_isShownWithoutItsReason() {
        RunOutcome r = RunOutcome.parse(
                DAILY,
                "{\"status\":\"OK\",\"occurrences\":[{\"occurrence\":\"2026-11-30T14:00:00Z\",\"outcome\":\"PASS\","
                        + "\"reason\":\"OK\"}]}",
                false);

        assertThat(r.describe()).isEqualTo("PASS at 2026-11-30T14:00:00Z");
    }
}
