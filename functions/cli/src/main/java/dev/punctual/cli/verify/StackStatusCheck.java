package dev.punctual.cli.verify;

/** The stage's stack is deployed and no deploy is running or left half done. */
public record StackStatusCheck(String stackName, String status) implements Check {

    public static StackStatusCheck read(StageInventory deployed) {
        return new StackStatusCheck(deployed.stackName(), deployed.stackStatus());
    }

    @Override
    public String name() {
        return "stack";
    }

    @Override
    public CheckResult result() {
        String checked = "stack " + stackName + " is deployed and not being changed";
        String seen = "status " + status;
        if (status.equals("CREATE_COMPLETE") || status.equals("UPDATE_COMPLETE") || status.equals("IMPORT_COMPLETE")) {
            return CheckResult.pass(name(), checked, seen);
        }
        if (status.endsWith("_IN_PROGRESS")) {
            return CheckResult.fail(
                    name(), checked, seen, "a deploy is running: wait until it completes, then run verify again");
        }
        if (status.equals("UPDATE_ROLLBACK_COMPLETE")) {
            return CheckResult.fail(
                    name(),
                    checked,
                    seen + " (the last deploy rolled back; the previous version runs)",
                    "read the stack's events (aws cloudformation describe-stack-events), fix, deploy again");
        }
        return CheckResult.fail(
                name(),
                checked,
                seen,
                "the stack is not usable: read its events (aws cloudformation describe-stack-events) and deploy again");
    }
}
