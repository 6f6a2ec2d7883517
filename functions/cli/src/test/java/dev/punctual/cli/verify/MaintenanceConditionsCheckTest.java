package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MaintenanceConditionsCheckTest {

    private static MaintenanceConditionsCheck.State state(String s, String why) {
        return new MaintenanceConditionsCheck.State("synthetic-members", s, why);
    }

    @Test
    void everyPoolEvaluatingEveryConditionClear_passes() {
        Map<String, MaintenanceConditionsCheck.Answer> answers = new LinkedHashMap<>();
        answers.put("default", MaintenanceConditionsCheck.Answer.of(List.of(state("CLEAR", ""))));
        answers.put("batch", MaintenanceConditionsCheck.Answer.of(List.of(state("CLEAR", ""))));

        CheckResult r = new MaintenanceConditionsCheck(answers).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen()).isEqualTo("default synthetic-members clear; batch synthetic-members clear");
    }

    @Test
    void aPoolThatCannotEvaluateACondition_failsNamingThePoolTheConditionAndWhy() {
        Map<String, MaintenanceConditionsCheck.Answer> answers = new LinkedHashMap<>();
        answers.put("default", MaintenanceConditionsCheck.Answer.of(List.of(state("CLEAR", ""))));
        answers.put(
                "batch",
                MaintenanceConditionsCheck.Answer.of(
                        List.of(state("UNKNOWN", "AccessDeniedException querying members: not authorized"))));

        CheckResult r = new MaintenanceConditionsCheck(answers).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).contains("pool batch: synthetic-members: AccessDeniedException querying members");
        assertThat(r.action()).contains("MAINTENANCE_UNKNOWN", "deploy the stage again");
    }

    @Test
    void aConditionThatHoldsNow_warnsThatEveryJobSkips() {
        CheckResult r = new MaintenanceConditionsCheck(
                        Map.of("default", MaintenanceConditionsCheck.Answer.of(List.of(state("HOLDS", "")))))
                .result();

        assertThat(r.status()).isEqualTo(CheckStatus.WARN);
        assertThat(r.seen()).isEqualTo("holds now: synthetic-members (pool default)");
    }

    @Test
    void aPingAnswer_isReadForItsConditions_andAnOlderFunctionsAnswerIsAProblem() {
        MaintenanceConditionsCheck.Answer read = MaintenanceConditionsCheck.parse(
                "{\"status\":\"OK\",\"kind\":\"ping\",\"conditions\":[{\"condition\":\"synthetic-members\","
                        + "\"state\":\"UNKNOWN\",\"why\":\"timed out\"}]}",
                false);
        MaintenanceConditionsCheck.Answer older =
                MaintenanceConditionsCheck.parse("{\"status\":\"OK\",\"kind\":\"ping\"}", false);
        MaintenanceConditionsCheck.Answer failed = MaintenanceConditionsCheck.parse(
                "{\"errorType\":\"Runtime.ExitError\",\"errorMessage\":\"exited\"}", true);

        assertThat(read.states()).containsExactly(state("UNKNOWN", "timed out"));
        assertThat(older.problem()).hasValueSatisfying(p -> assertThat(p).contains("names no condition"));
        assertThat(failed.problem()).hasValueSatisfying(p -> assertThat(p).contains("Runtime.ExitError: exited"));
    }
}
