package dev.punctual.cli.verify;

/** A manual run of a job marked safe to verify, through the deployed function, passes. */
public record ManualRunCheck(RunOutcome run) implements Check {

    @Override
    public String name() {
        return "manual-run";
    }

    @Override
    public CheckResult result() {
        String checked = "a manual run of " + run.job() + " (safe to verify) through the deployed function passes";
        if (run.is("PASS", null)) {
            return CheckResult.pass(name(), checked, run.describe());
        }
        return CheckResult.fail(
                name(),
                checked,
                run.describe(),
                "read the run's lines (punctual/<stage>/failures) and the function's log; fix before enabling the stage");
    }
}
