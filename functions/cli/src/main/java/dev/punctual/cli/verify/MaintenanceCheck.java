package dev.punctual.cli.verify;

import dev.punctual.outcome.Reason;
import java.util.List;
import java.util.Optional;

/**
 * {@code maintenance on} makes a run SKIP {@code MAINTENANCE} and {@code off} restores it. Verify
 * takes a hold of its own and always releases it; it never replaces or lifts someone else's.
 *
 * @param heldByOthers holds in force before verify began, or set since and refusing verify's own (group,
 *     who, why); verify then changes nothing
 * @param notTaken groups verify could not hold within its wait (jobs still running)
 * @param during the run while verify's hold was in force, if it ran
 * @param after the run after the hold was released, if it ran
 * @param released whether verify's hold was released on every group
 */
public record MaintenanceCheck(
        List<String> heldByOthers,
        List<String> notTaken,
        Optional<RunOutcome> during,
        Optional<RunOutcome> after,
        boolean released)
        implements Check {

    @Override
    public String name() {
        return "maintenance";
    }

    @Override
    public CheckResult result() {
        String checked = "maintenance on makes a run SKIP " + Reason.MAINTENANCE.wire() + " and off restores it";
        if (!heldByOthers.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "maintenance is already on: " + heldByOthers + "; every job skips while it holds",
                    "wait until it ends, or have its owner run punctual maintenance off, then verify again");
        }
        if (!released) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "verify's own hold could not be released",
                    "run punctual maintenance off --by punctual-verify --stage <stage> now, or jobs keep skipping");
        }
        if (!notTaken.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "groups still running after the wait: " + notTaken,
                    "a job is running; verify again when it has finished");
        }
        String seen = "on: " + during.map(RunOutcome::describe).orElse("not run") + "; off: "
                + after.map(RunOutcome::describe).orElse("not run");
        boolean skipped =
                during.filter(r -> r.is("SKIP", Reason.MAINTENANCE.wire())).isPresent();
        boolean restored = after.filter(r -> !r.reason().equals(Reason.MAINTENANCE.wire())
                        && !r.outcome().equals("ERROR")
                        && !r.outcome().equals("INVALID"))
                .isPresent();
        if (skipped && restored) {
            return CheckResult.pass(name(), checked, seen);
        }
        return CheckResult.fail(
                name(),
                checked,
                seen,
                skipped
                        ? "runs still skip after maintenance off: check punctual status for a hold"
                        : "stop: maintenance does not hold the jobs; check the function's ledger table is the stage's");
    }
}
