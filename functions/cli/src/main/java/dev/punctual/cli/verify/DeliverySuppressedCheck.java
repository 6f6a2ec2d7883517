package dev.punctual.cli.verify;

import java.util.List;
import java.util.Map;

/**
 * Where delivery is off, a delivering job's sends are suppressed: its run passes and the stage's logs
 * carry an {@code external delivery suppressed} line per message instead of a send. Only delivering
 * jobs marked safe to verify are run, and only where delivery is off.
 *
 * @param runs one manual run of each delivering job marked safe to verify
 * @param suppressed the {@code external delivery suppressed} lines per job since the runs began
 * @param sent each run's {@code sent} count from its outcome line's result, where it reports one
 */
public record DeliverySuppressedCheck(
        String stage,
        boolean deliveryEnabled,
        List<RunOutcome> runs,
        Map<String, Integer> suppressed,
        Map<String, Integer> sent)
        implements Check {

    @Override
    public String name() {
        return "delivery-suppressed";
    }

    @Override
    public CheckResult result() {
        String checked = "a delivering job's sends are suppressed where delivery is off";
        if (deliveryEnabled) {
            return CheckResult.pass(
                    name(), checked, "stage " + stage + " delivers (its config); verify runs no delivering job");
        }
        if (runs.isEmpty()) {
            return CheckResult.warn(
                    name(),
                    checked,
                    "not checked: no delivering job is marked safe to verify",
                    "the flags line shows PUNCTUAL_EXTERNAL_DELIVERY_ENABLED=false on every function; to have verify run"
                            + " one, mark a delivering job safeToVerify() in the catalog");
        }
        List<String> problems = runs.stream()
                .filter(r -> !r.is("PASS", null) || sent.getOrDefault(r.job(), 0) > 0)
                .map(r -> r.job() + " " + r.describe() + ", sent " + sent.getOrDefault(r.job(), 0))
                .toList();
        String seen = String.join(
                "; ",
                runs.stream()
                        .map(r -> r.job() + " " + r.describe() + ", " + suppressed.getOrDefault(r.job(), 0)
                                + " suppressed, " + sent.getOrDefault(r.job(), 0) + " sent")
                        .toList());
        if (problems.isEmpty()) {
            return CheckResult.pass(name(), checked, seen);
        }
        return CheckResult.fail(
                name(),
                checked,
                seen,
                "stop: messages may have left; switch the stage's schedules off and check"
                        + " PUNCTUAL_EXTERNAL_DELIVERY_ENABLED and the catalog's delivery port");
    }
}
