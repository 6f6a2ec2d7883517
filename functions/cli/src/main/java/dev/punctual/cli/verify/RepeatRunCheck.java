package dev.punctual.cli.verify;

import dev.punctual.outcome.Reason;

/** A second run of the same occurrence is recorded as already done: the ledger's idempotency holds. */
public record RepeatRunCheck(RunOutcome repeat) implements Check {

    @Override
    public String name() {
        return "repeat";
    }

    @Override
    public CheckResult result() {
        String checked = "a repeat of " + repeat.job() + "'s occurrence is SKIP " + Reason.ALREADY_DONE.wire();
        if (repeat.is("SKIP", Reason.ALREADY_DONE.wire())) {
            return CheckResult.pass(name(), checked, repeat.describe());
        }
        return CheckResult.fail(
                name(),
                checked,
                repeat.describe(),
                "stop: an occurrence could take effect twice; check the ledger table the function uses"
                        + " (PUNCTUAL_LEDGER_TABLE) is the stage's and report the run items");
    }
}
