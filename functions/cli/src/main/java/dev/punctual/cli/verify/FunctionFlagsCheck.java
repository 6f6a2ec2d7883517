package dev.punctual.cli.verify;

import dev.punctual.infra.FunctionPoolConstruct;
import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageFlags;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every function of the stage carries the stage's safety flags exactly as the stage config says
 * ({@link StageFlags#toEnvironment()}, the same map the CDK app writes): schedules, external delivery,
 * destructive jobs, lock wait, and the clock-skew tolerance ({@link SkewTolerance#toEnvironment()}). A
 * drifted flag (edited in the console, a stale deploy) is a FAIL.
 */
public record FunctionFlagsCheck(
        StageFlags expected, SkewTolerance tolerance, Map<String, Map<String, String>> environments) implements Check {

    /** With the default tolerance. */
    public FunctionFlagsCheck(StageFlags expected, Map<String, Map<String, String>> environments) {
        this(expected, SkewTolerance.DEFAULT, environments);
    }

    public static FunctionFlagsCheck read(
            StageAws aws, StageInventory deployed, StageFlags expected, SkewTolerance tolerance) {
        return new FunctionFlagsCheck(expected, tolerance, environments(aws, deployed));
    }

    /**
     * Each pool's environment as its {@code live} alias runs it (the published version the schedules
     * invoke, not {@code $LATEST}), by {@code <function>:live}.
     */
    static Map<String, Map<String, String>> environments(StageAws aws, StageInventory deployed) {
        Map<String, Map<String, String>> environments = new LinkedHashMap<>();
        Map<String, String> functions = deployed.functionsByPool();
        deployed.aliases().forEach((pool, aliasArn) -> {
            var config = aws.lambda().getFunctionConfiguration(r -> r.functionName(aliasArn));
            environments.put(
                    functions.get(pool) + ":" + FunctionPoolConstruct.ALIAS,
                    config.environment() == null
                            ? Map.of()
                            : config.environment().variables());
        });
        return environments;
    }

    @Override
    public String name() {
        return "flags";
    }

    @Override
    public CheckResult result() {
        Map<String, String> want = new LinkedHashMap<>(expected.toEnvironment());
        want.putAll(tolerance.toEnvironment());
        String checked = "each function's environment has stage " + expected.stage() + "'s flags " + want;
        if (environments.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "no function found (no pool alias output on the stack)",
                    "deploy the stage: cdk deploy -c stage=" + expected.stage());
        }
        List<String> drift = new ArrayList<>();
        environments.forEach((function, env) -> want.forEach((name, value) -> {
            String actual = env.get(name);
            if (!Objects.equals(actual, value)) {
                drift.add(function + " " + name + "=" + actual + " (stage config: " + value + ")");
            }
        }));
        if (drift.isEmpty()) {
            return CheckResult.pass(name(), checked, environments.size() + " function(s) match");
        }
        return CheckResult.fail(
                name(),
                checked,
                "drifted: " + String.join("; ", drift),
                "do not run jobs with these flags: deploy again with cdk deploy -c stage=" + expected.stage()
                        + " (never edit a function's environment by hand), or change the stage in Stages.java"
                        + (drift.stream().allMatch(d -> d.contains(" " + StageFlags.SCHEDULES_ENABLED + "="))
                                ? "; if the stage was deployed with -c schedules=on|off on purpose, verify with"
                                        + " --schedules on|off"
                                : ""));
    }
}
