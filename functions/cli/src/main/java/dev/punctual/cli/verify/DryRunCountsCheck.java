package dev.punctual.cli.verify;

/**
 * The counts a delivering or destructive job would touch (no personal data), from the job API's
 * preview. The job API has none yet (issue 10 adds it), so this check says so instead of guessing.
 */
public record DryRunCountsCheck(long jobsWithEffects) implements Check {

    @Override
    public String name() {
        return "dry-run";
    }

    @Override
    public CheckResult result() {
        return CheckResult.warn(
                name(),
                "each delivering or destructive job's dry-run counts (counts only, no personal data)",
                "not available: the job API has no preview of a job's targets; " + jobsWithEffects
                        + " delivering or destructive job(s) not counted",
                "count their targets yourself before enabling them (docs/runbook.md, section 1)");
    }
}
