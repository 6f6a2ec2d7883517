package dev.punctual.cli.verify;

import java.time.Duration;
import java.util.Optional;

/**
 * The manual run's outcome line (one structured JSON line per occurrence, what the saved queries read)
 * reached the stage's logs within a bounded wait.
 *
 * @param line the outcome line found, if any
 * @param waited how long verify looked
 */
public record OutcomeLoggedCheck(RunOutcome run, Optional<StageLogs.Line> line, Duration waited) implements Check {

    @Override
    public String name() {
        return "outcome-logged";
    }

    @Override
    public CheckResult result() {
        String checked = "the outcome line of " + run.job() + " at " + run.occurrence() + " is in the stage's logs";
        if (line.isPresent()) {
            return CheckResult.pass(
                    name(),
                    checked,
                    "found in " + line.get().group() + " at " + line.get().timestamp() + " (verify waits up to "
                            + waited.toSeconds() + " s)");
        }
        return CheckResult.fail(
                name(),
                checked,
                "not found within " + waited.toSeconds() + " s",
                "check the function's log group receives its lines (its role may write to it) and run the saved"
                        + " query punctual/<stage>/job-timeline; verify again with a longer --log-wait if logs are slow");
    }
}
