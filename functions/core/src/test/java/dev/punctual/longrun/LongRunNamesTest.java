package dev.punctual.longrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LongRunNamesTest {

    private static final Instant AT = Instant.parse("2027-01-31T14:00:00Z");
    private static final String TOKEN = "9b2f4c1e-0f3a-4d5e-8a7b-1c2d3e4f5a6b";

    @Test
    void an_executions_name_reads_as_stage_job_occurrence_fence_and_claim() {
        assertThat(LongRunNames.execution("prod", "close-books", AT, Optional.empty(), 7, TOKEN))
                .matches("prod-close-books-20270131T1400Z-f7-[0-9a-f]{6}");
        assertThat(LongRunNames.execution("prod", "tenant-export", AT, Optional.of("acme"), 3, TOKEN))
                .startsWith("prod-tenant-export-20270131T1400Z-acme-f3-");
        assertThat(LongRunNames.execution("prod", "job", AT.plusSeconds(30), Optional.empty(), 1, TOKEN))
                .startsWith("prod-job-20270131T140030Z-f1-");
    }

    @Test
    void the_same_claim_always_gets_the_same_name_and_another_claim_another() {
        String name = LongRunNames.execution("prod", "close", AT, Optional.empty(), 7, TOKEN);

        assertThat(LongRunNames.execution("prod", "close", AT, Optional.empty(), 7, TOKEN))
                .isEqualTo(name);
        assertThat(LongRunNames.execution("prod", "close", AT, Optional.empty(), 8, TOKEN))
                .isNotEqualTo(name);
        // Another ledger's claim with the same fence (a stage deployed again, a fresh emulator table).
        assertThat(LongRunNames.execution("prod", "close", AT, Optional.empty(), 7, "another-token"))
                .isNotEqualTo(name);
    }

    @Test
    void a_name_past_80_characters_or_with_characters_step_functions_refuses_is_cut_and_ends_in_a_hash() {
        String longEntity = "tenant-with-a-very-long-identifier-that-goes-on-and-on-and-on";
        String cut = LongRunNames.execution("staging", "close-books", AT, Optional.of(longEntity), 12, TOKEN);
        String spaced = LongRunNames.execution("prod", "close", AT, Optional.of("acme corp/eu"), 1, TOKEN);

        assertThat(cut).hasSizeLessThanOrEqualTo(LongRunNames.MAX_NAME).startsWith("staging-close-books-2027");
        assertThat(cut).matches(".*-[0-9a-f]{12}");
        assertThat(spaced).matches("[A-Za-z0-9_.-]+").startsWith("prod-close-20270131T1400Z-acme_corp_eu-f1-");
        assertThat(LongRunNames.execution("prod", "close", AT, Optional.of("acme corp_eu"), 1, TOKEN))
                .as("two entities whose safe forms agree still get two names")
                .isNotEqualTo(spaced);
    }

    @Test
    void a_claim_without_a_fence_has_no_execution() {
        assertThatThrownBy(() -> LongRunNames.execution("prod", "close", AT, Optional.empty(), 0, TOKEN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fence");
    }

    @Test
    void the_stages_state_machine_and_its_status_rule_are_named_for_the_stage() {
        assertThat(LongRunNames.stateMachine("prod", "close-books")).isEqualTo("punctual-prod-close-books");
        assertThat(LongRunNames.statusRule("prod", "batch")).isEqualTo("punctual-prod-long-ended-batch");
        assertThat(LongRunNames.isStatusRule(
                        "arn:aws:events:eu-central-1:1:rule/punctual-prod-long-ended-batch", "prod"))
                .isTrue();
        assertThat(LongRunNames.isStatusRule(
                        "arn:aws:events:eu-central-1:1:rule/punctual-dev-long-ended-batch", "prod"))
                .isFalse();
        assertThat(LongRunNames.executionArn("arn:aws:states:r:1:stateMachine:punctual-prod-close", "n"))
                .isEqualTo("arn:aws:states:r:1:execution:punctual-prod-close:n");
    }
}
