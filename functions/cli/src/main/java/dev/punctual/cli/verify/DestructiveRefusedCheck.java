package dev.punctual.cli.verify;

import dev.punctual.outcome.Reason;
import java.util.List;

/**
 * In a stage that refuses destructive jobs, a manual run of each destructive job is recorded SKIP
 * {@code DESTRUCTIVE_DISABLED} before it starts. Verify never runs a destructive job where the stage
 * allows them.
 *
 * @param runs one manual run of each destructive job (empty where the stage allows them)
 */
public record DestructiveRefusedCheck(String stage, boolean destructiveEnabled, List<RunOutcome> runs)
        implements Check {

    @Override
    public String name() {
        return "destructive-refused";
    }

    @Override
    public CheckResult result() {
        String checked = "destructive jobs are refused (SKIP " + Reason.DESTRUCTIVE_DISABLED.wire()
                + ") where the stage" + " refuses them";
        if (destructiveEnabled) {
            return CheckResult.pass(
                    name(), checked, "stage " + stage + " allows destructive jobs (its config); verify runs none");
        }
        if (runs.isEmpty()) {
            return CheckResult.pass(name(), checked, "no destructive job in the catalog");
        }
        List<RunOutcome> ran = runs.stream()
                .filter(r -> !r.is("SKIP", Reason.DESTRUCTIVE_DISABLED.wire()))
                .toList();
        String seen = String.join(
                "; ", runs.stream().map(r -> r.job() + " " + r.describe()).toList());
        if (ran.isEmpty()) {
            return CheckResult.pass(name(), checked, seen);
        }
        return CheckResult.fail(
                name(),
                checked,
                seen,
                "stop: a destructive job was not refused; switch the stage's schedules off (cdk deploy -c schedules=off),"
                        + " check PUNCTUAL_DESTRUCTIVE_ENABLED on its function, and restore from point-in-time recovery if"
                        + " it deleted anything");
    }
}
