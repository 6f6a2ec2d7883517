package dev.punctual.cli.verify;

import java.util.Objects;

/**
 * One line of verify's report.
 *
 * @param check the check's short name, e.g. {@code schedules}
 * @param status PASS, WARN or FAIL
 * @param checked what was checked, in words
 * @param seen what was found (counts and names only, never personal data or secrets)
 * @param action what to do about a FAIL or WARN; empty for a PASS
 */
public record CheckResult(String check, CheckStatus status, String checked, String seen, String action) {

    public CheckResult {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(checked, "checked");
        Objects.requireNonNull(seen, "seen");
        action = action == null ? "" : action;
    }

    public static CheckResult pass(String check, String checked, String seen) {
        return new CheckResult(check, CheckStatus.PASS, checked, seen, "");
    }

    public static CheckResult warn(String check, String checked, String seen, String action) {
        return new CheckResult(check, CheckStatus.WARN, checked, seen, action);
    }

    public static CheckResult fail(String check, String checked, String seen, String action) {
        return new CheckResult(check, CheckStatus.FAIL, checked, seen, action);
    }
}
