package dev.punctual.cli.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.job.JobCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Each pool's function evaluates each maintenance condition of the catalog (decision 0036, 5) with its
 * own role: a {@code ping} of its live alias answers with every condition's state. A condition a function
 * cannot evaluate skips every job it runs (MAINTENANCE_UNKNOWN), so it FAILs; one that holds now is a
 * WARN (every job is skipping); all clear PASS. Only a catalog that declares a condition has the check.
 *
 * @param answers by pool: each condition's state, or why the function could not be asked
 */
public record MaintenanceConditionsCheck(Map<String, Answer> answers) implements Check {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One condition as a pool's function evaluated it: HOLDS, CLEAR or UNKNOWN, and why when UNKNOWN. */
    public record State(String condition, String state, String why) {}

    /** A pool's answer: the conditions' states, or the problem that kept the function from answering. */
    public record Answer(List<State> states, Optional<String> problem) {
        public static Answer of(List<State> states) {
            return new Answer(List.copyOf(states), Optional.empty());
        }

        public static Answer failed(String problem) {
            return new Answer(List.of(), Optional.of(problem));
        }
    }

    /** Every pool asked, by name. */
    public static MaintenanceConditionsCheck read(StageInvoker invoker, JobCatalog catalog) {
        Map<String, Answer> answers = new LinkedHashMap<>();
        catalog.pools().forEach(pool -> answers.put(pool.name(), invoker.conditions(pool.name())));
        return new MaintenanceConditionsCheck(answers);
    }

    /** A ping's answer (events/README.md, "Result"), read for its {@code conditions}. */
    public static Answer parse(String response, boolean functionError) {
        JsonNode tree;
        try {
            tree = JSON.readTree(response);
        } catch (IOException e) {
            return Answer.failed("the function's answer is not JSON");
        }
        if (functionError) {
            return Answer.failed(
                    "the function failed: " + tree.path("errorType").asText("error") + ": "
                            + tree.path("errorMessage").asText());
        }
        if (!tree.path("conditions").isArray()) {
            return Answer.failed("the function's ping names no condition: it runs a build from before conditions,"
                    + " or a catalog without them");
        }
        List<State> states = new ArrayList<>();
        for (JsonNode c : tree.path("conditions")) {
            states.add(new State(
                    c.path("condition").asText(),
                    c.path("state").asText(),
                    c.path("why").asText("")));
        }
        return Answer.of(states);
    }

    @Override
    public String name() {
        return "conditions";
    }

    @Override
    public CheckResult result() {
        String checked = "each pool's function evaluates each maintenance condition with its own role";
        List<String> unknown = new ArrayList<>();
        List<String> holding = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        answers.forEach((pool, answer) -> {
            if (answer.problem().isPresent()) {
                unknown.add("pool " + pool + ": " + answer.problem().get());
                return;
            }
            for (State s : answer.states()) {
                switch (s.state()) {
                    case "CLEAR" -> seen.add(pool + " " + s.condition() + " clear");
                    case "HOLDS" -> holding.add(s.condition() + " (pool " + pool + ")");
                    default -> unknown.add("pool " + pool + ": " + s.condition() + ": " + s.why());
                }
            }
        });
        if (!unknown.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "cannot evaluate: " + String.join("; ", unknown),
                    "every job of those pools skips as MAINTENANCE_UNKNOWN: deploy the stage again (each pool is given"
                            + " dynamodb:Query on each condition's table or index, and its name) and verify again"
                            + " (docs/runbook.md#maintenance-unknown)");
        }
        if (!holding.isEmpty()) {
            return CheckResult.warn(
                    name(),
                    checked,
                    "holds now: "
                            + String.join(", ", holding.stream().distinct().toList()),
                    "every job skips as MAINTENANCE while it holds: reset the data it finds when the session that"
                            + " loaded it is over");
        }
        return CheckResult.pass(name(), checked, String.join("; ", seen));
    }
}
